// Per-request DataLoaders (created with the GraphQL context, never shared between requests): each batches the keys
// one tick of resolvers asks for into one query.
import DataLoader from 'dataloader';
import { findUsersByIds } from '../../db/queries/users.ts';
import { findGroupViewsByIds, namespaceFullNames, selfAndDescendantIds } from '../../db/queries/groups.ts';
import { findProjectViewsByIds, listProjectViewsPages, openIssuesCounts } from '../../db/queries/projects.ts';
import { findFilesOfSnippets, type SnippetFile } from '../../db/queries/snippets.ts';
import type { RequestContext } from '../lib/context.ts';
import { findAwardsOfAwardables, type AwardableKey, type AwardView } from '../../db/queries/award-emoji.ts';
import { findNotesOfNoteables, type NoteableKey, type NoteView } from '../../db/queries/notes.ts';
import { countIssuesOfProjects, countUserDiscussionsOfIssues, findLabelsOfIssues, findParticipantsOfIssues, findUserTodosOfIssues, listIssueViewsPages, type IssueListFilter } from '../../db/queries/issues.ts';
import { countProjectLabelsOfProjects, findProjectLabelsByTitles, listProjectLabelsPages } from '../../db/queries/labels.ts';
import { listMembersPages, type MemberFilter, type MemberSource } from '../../db/queries/members.ts';
import { listProjectMilestonesPages } from '../../db/queries/milestones.ts';
import { listSnippetFactsPages, type SnippetFinderFilter } from '../../db/queries/snippets.ts';
import { issues, labels, members, milestones, projects, snippets, type LabelRow, type UserRow } from '../../db/schema/index.ts';
import { sql, type AnyColumn } from 'drizzle-orm';
import { keysetOrderBy, keysetWhere, type KeysetPage } from './connection.ts';

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

/** JSON with object keys sorted (undefined members dropped): equal arguments, equal strings. */
export const stableKey = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );

/**
 * A loader of one answer per (parent, arguments): the keys of one tick that share their arguments (stableKey) are
 * answered by one `fetch` over all their parents (which returns one answer per parent, in order). A connection
 * nested under a list of N parents costs one query per distinct set of arguments, not N.
 */
export const perParent = <P, A, T>(fetch: (parents: P[], args: A) => Promise<T[]>) =>
  new DataLoader<{ parent: P; args: A }, T, string>(
    async (keys) => {
      const batches = new Map<string, { args: A; at: number[] }>();
      keys.forEach((k, i) => {
        const s = stableKey(k.args);
        const batch = batches.get(s);
        if (batch) batch.at.push(i);
        else batches.set(s, { args: k.args, at: [i] });
      });
      // All batches answer together (one tick), so what the answers' resolvers load next batches together too.
      const out = new Array<T>(keys.length);
      await Promise.all(
        [...batches.values()].map(async (batch) => {
          const answers = await fetch(batch.at.map((i) => keys[i]!.parent), batch.args);
          batch.at.forEach((i, j) => (out[i] = answers[j]!));
        }),
      );
      return out;
    },
    { cacheKeyFn: stableKey },
  );

/** The SQL of a keyset page over `column` (the single-parent queries' where/orderBy/limit). */
const pageSql = (column: AnyColumn, page: KeysetPage) => ({ where: keysetWhere(column, page), orderBy: keysetOrderBy(column, page), limit: page.limit });

export interface MemberPageArgs {
  relations: { direct: boolean; inherited: boolean };
  filter: MemberFilter;
  page: KeysetPage;
}

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
    /** Distinct discussions of user notes by issue id (a page: one grouped count). */
    issueUserDiscussionsCount: byId((ids) => countUserDiscussionsOfIssues(ctx.db, ids)),
    /** Author, assignees and commenters (with their notes' facts) by issue id, in order (a page: one query). */
    issueParticipants: grouped<number, Awaited<ReturnType<typeof findParticipantsOfIssues>>[number]>((ids) => findParticipantsOfIssues(ctx.db, ids), (r) => r.issueId),
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
    // ---- Connections nested under lists: one query per page arguments whatever the number of parents ----
    /** Project.issues/issue pages by project id. */
    issuePages: perParent((projectIds: number[], a: { filter: Omit<IssueListFilter, 'projectId'>; page: KeysetPage }) =>
      listIssueViewsPages(ctx.db, ctx.actor, a.filter, projectIds, pageSql(issues.id, a.page), ctx.actor.user?.id),
    ),
    /** IssueConnection.count by project id (one grouped count). */
    issueCounts: perParent((projectIds: number[], filter: Omit<IssueListFilter, 'projectId'>) => countIssuesOfProjects(ctx.db, ctx.actor, filter, projectIds)),
    /** Project.label(title): a project's own label by (project id, title). */
    projectLabelByTitle: new DataLoader<{ projectId: number; title: string }, LabelRow | undefined, string>((keys) => findProjectLabelsByTitles(ctx.db, keys), {
      cacheKeyFn: stableKey,
    }),
    /** Project.labels pages and counts by project id. */
    projectLabelPages: perParent((projectIds: number[], a: { search: string | undefined; page: KeysetPage }) =>
      listProjectLabelsPages(ctx.db, projectIds, a.search, pageSql(labels.id, a.page)),
    ),
    projectLabelCounts: perParent((projectIds: number[], a: { search: string | undefined }) => countProjectLabelsOfProjects(ctx.db, projectIds, a.search)),
    /** Project.milestones pages by project id. */
    projectMilestonePages: perParent((projectIds: number[], a: { page: KeysetPage }) => listProjectMilestonesPages(ctx.db, projectIds, pageSql(milestones.id, a.page))),
    /** User.snippets / Project.snippets pages by author / project id. */
    snippetPages: perParent(
      (parentIds: number[], a: { parent: 'authorId' | 'projectId'; filter: Omit<SnippetFinderFilter, 'authorId' | 'projectId'>; page: KeysetPage }) =>
        listSnippetFactsPages(ctx.db, ctx.actor, a.filter, a.parent, parentIds, pageSql(snippets.id, a.page)),
    ),
    /** projectMembers/groupMembers pages by member source. */
    memberPages: perParent((sources: MemberSource[], a: MemberPageArgs) => listMembersPages(ctx.db, sources, a.relations, a.filter, pageSql(members.id, a.page))),
    /** Group.projects/Namespace.projects pages by namespace (with or without its subgroups). */
    namespaceProjectPages: perParent((parents: Array<{ id: number; subgroups: boolean }>, a: { search: string | undefined; page: KeysetPage }) =>
      listProjectViewsPages(
        ctx.db,
        ctx.actor,
        parents.map((p) => ({ namespaceIds: p.subgroups ? selfAndDescendantIds(p.id) : sql`${p.id}`, search: a.search })),
        pageSql(projects.id, a.page),
      ),
    ),
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
