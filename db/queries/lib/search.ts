// GitLab's Gitlab::SQL::Pattern, the one text-search rule of its finders (Project.search, Issuable.full_search,
// Milestone.search, Snippet.search, Namespace.search, Label.search...): every query of this service that GitLab
// answers with fuzzy_search goes through `fuzzySearch`.
import { and, ilike, or, sql, type SQL } from 'drizzle-orm';

/** Escapes LIKE's wildcards and its escape character, so the text is taken literally. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (m) => `\\${m}`);

/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in the text taken literally. */
export const containsPattern = (text: string) => `%${likeLiteral(text)}%`;

/** MIN_CHARS_FOR_PARTIAL_MATCHING: shorter words match only as the whole query, exactly. */
const MIN_CHARS = 3;

/** REGEX_QUOTED_WORD: a `"quoted phrase"` standing on its own is one word, spaces included. */
const QUOTED_WORD = /(?<=^| )"[^"]+"(?= |$)/g;

/** select_fuzzy_words: the query's quoted phrases and its other words, those of 3 characters or more. */
export function fuzzyWords(query: string): string[] {
  const quoted = query.match(QUOTED_WORD) ?? [];
  let rest = query;
  for (const q of quoted) rest = rest.replace(q, '');
  const words = rest.split(/\s+/).filter((w) => w !== '');
  return [...words, ...quoted.map((q) => q.slice(1, -1))].filter((w) => w.length >= MIN_CHARS);
}

type Column = Parameters<typeof ilike>[0];

/**
 * fuzzy_arel_match for one column: every word must occur in it (ILIKE, case-insensitive); a query without a word of
 * 3 characters matches the whole column exactly (case-insensitively, or `lower(column) = query` with `lowerExact`,
 * the query then being lower-cased by the caller). Undefined for a blank query (no condition).
 */
export function fuzzyMatch(column: Column, query: string, options: { lowerExact?: boolean } = {}): SQL | undefined {
  const squished = query.trim().replace(/\s+/g, ' ');
  if (squished === '') return undefined;
  const words = fuzzyWords(squished);
  if (words.length) return and(...words.map((w) => ilike(column, containsPattern(w))))!;
  return options.lowerExact ? sql`lower(${column}) = ${squished}` : ilike(column, likeLiteral(squished));
}

/** fuzzy_search: a row matches when any of the columns matches (fuzzyMatch); a blank query matches every row. */
export function fuzzySearch(query: string, columns: readonly Column[]): SQL {
  const matches = columns.map((c) => fuzzyMatch(c, query)).filter((m): m is SQL => m !== undefined);
  return matches.length ? or(...matches)! : sql`true`;
}
