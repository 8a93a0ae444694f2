// @mentions in an issue's title and description (GitLab's Mentionable with the user reference filter): who is
// mentioned, and who is directly addressed (mentioned at the start of a line), for to-dos.
// GitLab's username characters; a trailing "." ends the sentence, not the name.
const MENTION = /(?<![\w@/.+-])@([a-zA-Z0-9_][a-zA-Z0-9_.-]*)/g;
const LINE_START = /^[ \t]*((?:@[a-zA-Z0-9_][a-zA-Z0-9_.-]*[ \t,]*)+)/gm;

const clean = (name: string) => name.replace(/\.+$/, '').toLowerCase();

/** Lower-cased usernames mentioned in `texts` (code spans and blocks are not looked at). */
export function mentionedUsernames(...texts: Array<string | null | undefined>): { all: Set<string>; direct: Set<string> } {
  const all = new Set<string>();
  const direct = new Set<string>();
  for (const raw of texts) {
    if (!raw || !raw.includes('@')) continue;
    const text = raw.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
    for (const m of text.matchAll(MENTION)) all.add(clean(m[1]!));
    for (const line of text.matchAll(LINE_START)) for (const m of line[1]!.matchAll(MENTION)) direct.add(clean(m[1]!));
  }
  all.delete('');
  direct.delete('');
  return { all, direct };
}
