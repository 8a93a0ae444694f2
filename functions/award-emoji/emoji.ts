// Award emoji names: GitLab's Gitlab::Emoji (13.x, gemojione) through the maintained `gemoji` package. Only the names
// are kept (built once, on first use); gemoji lists GitLab's common names too, as aliases (`+1` and `thumbsup`).
import { gemoji } from 'gemoji';

let names: ReadonlySet<string> | undefined;

const knownNames = () => (names ??= new Set(gemoji.flatMap((g) => g.names)));

/**
 * GitLab's normalize_emoji_name: the aliases GitLab stores under another name. Issue upvotes/downvotes count
 * `thumbsup`/`thumbsdown`, so `+1`/`-1` must be stored as those.
 */
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

export const normalizeEmojiName = (name: string) => ALIASES[name] ?? name;

/** Whether `name` (as given, before normalization) names a known emoji; whitespace and control characters never do. */
export const isEmojiName = (name: string) => knownNames().has(name);
