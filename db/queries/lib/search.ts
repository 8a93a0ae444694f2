/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in the text taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
