// Per-request DataLoaders (created with the GraphQL context, never shared between requests): each batches the keys
// one tick of resolvers asks for into one query.
import DataLoader from 'dataloader';
import { findUsersByIds } from '../../db/queries/users.ts';
import { findGroupViewsByIds, namespaceFullNames } from '../../db/queries/groups.ts';
import { findProjectViewsByIds, openIssuesCounts } from '../../db/queries/projects.ts';
import { findFilesOfSnippets, type SnippetFile } from '../../db/queries/snippets.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { findAwardsOfAwardables, type AwardableKey, type AwardView } from '../../db/queries/award-emoji.ts';
import { findLabelsOfIssues, findUserTodosOfIssues } from '../../db/queries/issues.ts';
import { findNotesOfNoteables, type NoteableKey, type NoteView } from '../../db/queries/notes.ts';
import type { LabelRow } from '../../db/schema/index.ts';

/** Loads rows by id in one query, answering in the order asked (null for missing ids). */
const byId = <T extends { id: number }>(load: (ids: readonly number[]) => Promise<T[]>) =>
  new DataLoader<number, T | null>(async (ids) => {
    const rows = new Map((await load(ids)).map((r) => [r.id, r]));
    return ids.map((id) => rows.get(id) ?? null);
  });

/** Loads the rows of several parents in one query, grouped by `keyOf` (an empty list for parents without any). */
const grouped = <K, T>(load: (keys: readonly K[]) => Promise<T[]>, keyOf: (row: T) => K) =>
  new DataLoader<K, T[]>(async (keys) => {
    const groups = new Map<K, T[]>();
    for (const row of await load(keys)) {
      const k = keyOf(row);
      groups.set(k, [...(groups.get(k) ?? []), row]);
    }
    return keys.map((k) => groups.get(k) ?? []);
  });

const parseKey = <T extends string>(key: string) => {
  const [type, id] = key.split(':');
  return { type: type as T, id: Number(id) };
};

export function createLoaders(ctx: RequestContext) {
  return {
    user: byId<UserRow>((ids) => findUsersByIds(ctx.db, ids)),
    /** Award emoji with their users, oldest first, by awardable (`Issue:1`, `Note:2`): one query for a page. */
    awards: grouped<string, AwardView>(
      (keys) => findAwardsOfAwardables(ctx.db, keys.map((k) => parseKey<AwardableKey['type']>(k))),
      (r) => `${r.award.awardableType}:${r.award.awardableId}`,
    ),
    /** Notes with their authors, oldest first, by noteable (`Issue:1`): one query for a page. */
    notes: grouped<string, NoteView>(
      (keys) => findNotesOfNoteables(ctx.db, keys.map((k) => parseKey<NoteableKey['type']>(k))),
      (r) => `${r.note.noteableType}:${r.note.noteableId}`,
    ),
    /** Labels by issue id, by title. */
    issueLabels: grouped<number, { issueId: number; label: LabelRow }>((ids) => findLabelsOfIssues(ctx.db, ids), (r) => r.issueId),
    /** The current user's to-dos by issue id (none when anonymous). */
    currentUserIssueTodos: grouped<number, Awaited<ReturnType<typeof findUserTodosOfIssues>>[number]>(
      (ids) => (ctx.actor.user ? findUserTodosOfIssues(ctx.db, ctx.actor.user.id, ids) : Promise.resolve([])),
      (r) => r.todo.targetId,
    ),
    /** Projects the actor may read, by id (null when missing or hidden). */
    projectView: byId((ids) => findProjectViewsByIds(ctx.db, ctx.actor, ids).then((rows) => rows.map((r) => Object.assign(r, { id: r.project.id })))),
    /** Groups (with the actor's access facts) by namespace id: projects' groups, groups' parents. */
    groupView: byId((ids) => findGroupViewsByIds(ctx.db, ctx.actor, ids).then((rows) => rows.map((r) => Object.assign(r, { id: r.namespace.id })))),
    /** "Parent / Child" full names of namespaces by id. */
    namespaceFullName: byId((ids) => namespaceFullNames(ctx.db, ids)),
    /** Open issues per project id: all and non-confidential (projects without any: null). */
    openIssuesCount: byId((ids) => openIssuesCounts(ctx.db, ids)),
    /** A snippet's files with their contents, in order, by snippet id (a page of snippets: one query). */
    snippetFiles: new DataLoader<number, SnippetFile[]>(async (ids) => {
      const bySnippet = new Map<number, SnippetFile[]>();
      for (const f of await findFilesOfSnippets(ctx.db, ids)) {
        const list = bySnippet.get(f.snippetId) ?? [];
        list.push({ path: f.path, content: f.content });
        bySnippet.set(f.snippetId, list);
      }
      return ids.map((id) => bySnippet.get(id) ?? []);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
