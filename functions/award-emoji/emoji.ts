// Award emoji names: GitLab's Gitlab::Emoji (13.x, gemojione) through the maintained `gemoji` package; gemoji lists
// GitLab's common names too, as aliases (`+1` and `thumbsup`). What is used of it (emoji, description, names) is
// generated into emoji-data.ts as one string (db/local/emoji-data.mjs; gemoji's module is a 196 KiB object literal
// that every cold start would parse and build) and read into a map on first use, once per isolate.
import { EMOJI_DATA } from './emoji-data.ts';

interface Gemoji {
  emoji: string;
  description: string;
  names: string[];
}

let byName: ReadonlyMap<string, Gemoji> | undefined;

/** Every gemoji name to its emoji (built on first use). */
function emojiByName(): ReadonlyMap<string, Gemoji> {
  if (byName) return byName;
  const map = new Map<string, Gemoji>();
  for (const line of EMOJI_DATA.split('\n')) {
    const [emoji, description, names] = line.split('\t') as [string, string, string];
    const g: Gemoji = { emoji, description, names: names.split(' ') };
    for (const n of g.names) map.set(n, g);
  }
  return (byName = map);
}

/**
 * GitLab's normalize_emoji_name: the aliases GitLab stores under another name. Issue upvotes/downvotes count
 * `thumbsup`/`thumbsdown`, so `+1`/`-1` must be stored as those.
 */
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

export const normalizeEmojiName = (name: string) => ALIASES[name] ?? name;

/** Whether `name` (as given, before normalization) names a known emoji; whitespace and control characters never do. */
export const isEmojiName = (name: string) => emojiByName().has(name);

export interface EmojiInfo {
  /** The emoji itself (its unicode characters). */
  emoji: string;
  description: string;
  /** GitLab's emoji "unicode": the code points in hex, joined with `-` (variation selectors left out), e.g. `1f44d` (GitLab's emoji file name). */
  unicode: string;
  unicodeVersion: string;
}

/**
 * The Unicode version that introduced an emoji's first code point. gemoji carries no version, so this is a compact
 * table of the emoji ranges (hand-written: a full emoji database would weigh on the Worker bundle); ranges not
 * listed read as the version of their block's bulk.
 */
const VERSIONS: ReadonlyArray<[number, number, string]> = [
  [0x1f90c, 0x1f90c, '13.0'],
  [0x1f90d, 0x1f90f, '12.0'],
  [0x1f910, 0x1f918, '8.0'],
  [0x1f919, 0x1f91e, '9.0'],
  [0x1f91f, 0x1f91f, '10.0'],
  [0x1f920, 0x1f927, '9.0'],
  [0x1f928, 0x1f92f, '10.0'],
  [0x1f930, 0x1f930, '9.0'],
  [0x1f931, 0x1f932, '10.0'],
  [0x1f933, 0x1f93e, '9.0'],
  [0x1f93f, 0x1f93f, '12.0'],
  [0x1f940, 0x1f94b, '9.0'],
  [0x1f94c, 0x1f94c, '10.0'],
  [0x1f94d, 0x1f94f, '11.0'],
  [0x1f950, 0x1f95e, '9.0'],
  [0x1f95f, 0x1f96b, '10.0'],
  [0x1f96c, 0x1f970, '11.0'],
  [0x1f971, 0x1f971, '12.0'],
  [0x1f972, 0x1f972, '13.0'],
  [0x1f973, 0x1f976, '11.0'],
  [0x1f977, 0x1f978, '13.0'],
  [0x1f97a, 0x1f97a, '11.0'],
  [0x1f97b, 0x1f97b, '12.0'],
  [0x1f97c, 0x1f97f, '11.0'],
  [0x1f980, 0x1f984, '8.0'],
  [0x1f985, 0x1f991, '9.0'],
  [0x1f992, 0x1f997, '10.0'],
  [0x1f998, 0x1f9a2, '11.0'],
  [0x1f9a3, 0x1f9a4, '13.0'],
  [0x1f9a5, 0x1f9aa, '12.0'],
  [0x1f9ab, 0x1f9ad, '13.0'],
  [0x1f9ae, 0x1f9af, '12.0'],
  [0x1f9b0, 0x1f9b9, '11.0'],
  [0x1f9ba, 0x1f9bf, '12.0'],
  [0x1f9c0, 0x1f9c0, '8.0'],
  [0x1f9c1, 0x1f9c2, '11.0'],
  [0x1f9c3, 0x1f9ca, '12.0'],
  [0x1f9cb, 0x1f9cb, '13.0'],
  [0x1f9cd, 0x1f9cf, '12.0'],
  [0x1f9d0, 0x1f9e6, '10.0'],
  [0x1f9e7, 0x1f9ff, '11.0'],
  [0x1fa70, 0x1faff, '12.0'],
  [0x1f6d0, 0x1f6d0, '8.0'],
  [0x1f6d1, 0x1f6d2, '9.0'],
  [0x1f6d5, 0x1f6d7, '12.0'],
  [0x1f6f4, 0x1f6f6, '9.0'],
  [0x1f6f7, 0x1f6f8, '10.0'],
  [0x1f6f9, 0x1f6fa, '11.0'],
  [0x1f6fb, 0x1f6fc, '13.0'],
  [0x1f6c6, 0x1f6cf, '7.0'],
  [0x1f6e0, 0x1f6f3, '7.0'],
  [0x1f641, 0x1f642, '7.0'],
  [0x1f643, 0x1f644, '8.0'],
  [0x1f6cc, 0x1f6cc, '7.0'],
  [0x1f90c, 0x1f90c, '13.0'],
  [0x1f54b, 0x1f54f, '8.0'],
  [0x1f57a, 0x1f57a, '9.0'],
  [0x1f5a4, 0x1f5a4, '9.0'],
  [0x1f6d1, 0x1f6d2, '9.0'],
  [0x1f32d, 0x1f32f, '8.0'],
  [0x1f37e, 0x1f37f, '8.0'],
  [0x1f3cf, 0x1f3d3, '8.0'],
  [0x1f3f8, 0x1f3ff, '8.0'],
  [0x1f4ff, 0x1f4ff, '8.0'],
  [0x1f321, 0x1f32c, '7.0'],
  [0x1f336, 0x1f336, '7.0'],
  [0x1f37d, 0x1f37d, '7.0'],
  [0x1f394, 0x1f39f, '7.0'],
  [0x1f3cb, 0x1f3ce, '7.0'],
  [0x1f3d4, 0x1f3df, '7.0'],
  [0x1f3f1, 0x1f3f7, '7.0'],
  [0x1f43f, 0x1f43f, '7.0'],
  [0x1f441, 0x1f441, '7.0'],
  [0x1f4f8, 0x1f4f8, '7.0'],
  [0x1f4fd, 0x1f4fe, '7.0'],
  [0x1f53e, 0x1f54a, '7.0'],
  [0x1f550, 0x1f5ff, '6.0'],
  [0x1f300, 0x1f6ff, '6.0'],
  [0x1f1e6, 0x1f1ff, '6.0'],
  [0x1f000, 0x1f2ff, '5.2'],
  [0x2000, 0x2bff, '1.1'],
  [0x3000, 0x33ff, '1.1'],
  [0x0000, 0x00ff, '1.1'],
];

const versionOf = (codePoint: number) => VERSIONS.find(([from, to]) => codePoint >= from && codePoint <= to)?.[2] ?? '6.0';

/** What GraphQL's AwardEmoji shows of a (stored, normalized) emoji name; null for a name gemoji does not know. */
export function emojiInfo(name: string): EmojiInfo | null {
  const g = emojiByName().get(name);
  if (!g) return null;
  const points = [...g.emoji].map((c) => c.codePointAt(0)!).filter((cp) => cp !== 0xfe0f);
  return {
    emoji: g.emoji,
    description: g.description,
    unicode: points.map((cp) => cp.toString(16)).join('-'),
    unicodeVersion: versionOf(points[0] ?? 0),
  };
}
