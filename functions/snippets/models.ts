// What GraphQL's Snippet and SnippetBlob types are resolved from. schema/codegen.ts maps each `<Type>Model` exported
// here to the GraphQL type <Type>.
import type { SnippetFactsRow } from '../../db/queries/snippets.ts';

/** A snippet with its author, project path, file paths and its project's facts (one row of the snippets page query). */
export type SnippetModel = SnippetFactsRow;
/** One file of a snippet, with its place among the snippet's files (1-based: the blobs connection's cursor). */
export interface SnippetBlobModel {
  snippet: SnippetFactsRow;
  path: string;
  content: string;
  position: number;
}
