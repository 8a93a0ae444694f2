// The search API (GitLab 13.6 lib/api/search.rb, SearchService and Gitlab::{,Group,Project}SearchResults), basic
// search: each scope is the list verb of its own domain, with the finder parameters GitLab's search passes to it, so
// what a search finds is exactly what the reader may list (the same read rules, in the same SQL).
import { searchProjectMilestones } from '../../db/queries/milestones.ts';
import { searchProjectNotes } from '../../db/queries/notes.ts';
import { hierarchyMemberSql, namespaceScope } from '../../db/queries/groups.ts';
import { teamMemberSql } from '../../db/queries/projects.ts';
import { searchFiles } from '../../db/queries/repositories/grep.ts';
import { logPage, resolveRevision } from '../../db/queries/repositories/reads.ts';
import { listUsers as queryUsers, countUsers } from '../../db/queries/users.ts';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { can } from '../lib/policy.ts';
import { requireUser } from '../lib/auth.ts';
import { findGroup } from '../groups/service.ts';
import { listIssues } from '../issues/service.ts';
import { listMergeRequests } from '../merge-requests/service.ts';
import { findProject, listProjects, projectFacts } from '../projects/service.ts';
import { commitView } from '../repositories/service.ts';
import { searchSnippets } from '../snippets/service.ts';
import { userListFilter } from '../users/service.ts';
import { basenameOf, BATCH_SIZE, contentChunks, parseBlobQuery, passesFilters } from './blobs.ts';
import { needsElasticsearch, type SearchScope, type SearchState } from './scopes.ts';
import type { SearchRow } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export type SearchWhere = { kind: 'all' } | { kind: 'group'; ref: Ref | null } | { kind: 'project'; ref: Ref | null };

export interface SearchParams {
  search: string;
  scope: SearchScope;
  state?: SearchState | undefined;
  confidential?: boolean | undefined;
  /** Project search: the branch or tag commits and blobs are searched at (the default branch without it). */
  ref?: string | undefined;
}

/**
 * A page of results. `count` is null where GitLab paginates without counting (instance and group searches:
 * SearchResults#objects is `without_count`); a project search counts (X-Total).
 */
export interface SearchResults {
  fetch: (limit: number, offset: number) => Promise<SearchRow[]>;
  count: ((cap: number) => Promise<number>) | null;
}

/** The iid an issue or merge request search names (`#12`: SearchResults#issuable_params), else the text. */
const issuableQuery = (search: string) => {
  const m = /#(\d+)$/.exec(search);
  return m ? { iids: [Number(m[1])] } : { search };
};

/** The rows of an in-memory result list (commits, blobs), paginated as Kaminari.paginate_array. */
const inMemory = (all: () => Promise<SearchRow[]>): SearchResults => {
  let loaded: Promise<SearchRow[]> | undefined;
  const rows = () => (loaded ??= all());
  return { fetch: async (limit, offset) => (await rows()).slice(offset, offset + limit), count: async () => (await rows()).length };
};

const empty = { fetch: async (): Promise<SearchRow[]> => [], count: async () => 0 };

export async function search({ ctx, input }: Verb<{ where: SearchWhere; params: SearchParams }>): Promise<SearchResults> {
  requireUser(ctx);
  const { where, params } = input;
  // EE's verify_search_scope!: these scopes need Elasticsearch at the instance and group levels.
  if (where.kind !== 'project' && needsElasticsearch(params.scope)) throw serviceFailed(['Scope not supported without Elasticsearch!']);
  const group = where.kind === 'group' ? await findGroup(ctx, where.ref) : null;
  const project = where.kind === 'project' ? await findProject(ctx, where.ref) : null;
  const counted = project !== null;
  const source = project
    ? { kind: 'project' as const, ref: { id: project.project.id } }
    : group
      ? { kind: 'group' as const, ref: { id: group.namespace.id } }
      : { kind: 'all' as const };
  const withCount = (r: { fetch: SearchResults['fetch']; count: (cap: number) => Promise<number> }): SearchResults =>
    counted ? r : { fetch: r.fetch, count: null };
  const q = params.search;

  switch (params.scope) {
    case 'projects': {
      // ProjectsFinder's default order (id, newest first), the group's projects with its subgroups'.
      const list = listProjects({
        ctx,
        input: { search: q, order_by: 'id', sort: 'desc' },
        scope: group ? { namespaceIds: namespaceScope(group.namespace.id, true) } : {},
      });
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((v) => ({ scope: 'projects', v })), count: list.count });
    }
    case 'issues': {
      // IssuesFinder as SearchResults#issues calls it: every state unless asked, archived projects too, newest updated first.
      const state = params.state === 'merged' ? null : params.state;
      if (state === null) return withCount(empty);
      const list = await listIssues({
        ctx,
        input: {
          source,
          params: { scope: 'all', ...issuableQuery(q), state, confidential: params.confidential, non_archived: false, order_by: 'updated_at', sort: 'desc' },
        },
      });
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((v) => ({ scope: 'issues', v })), count: list.count });
    }
    case 'merge_requests': {
      const list = await listMergeRequests({
        ctx,
        input: { source, params: { scope: 'all', ...issuableQuery(q), state: params.state, non_archived: false, order_by: 'updated_at', sort: 'desc' } },
      });
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((v) => ({ scope: 'merge_requests', v })), count: list.count });
    }
    case 'milestones': {
      const within = project ? { projectId: project.project.id } : group ? { groupId: group.namespace.id } : null;
      let total: number | undefined;
      return withCount({
        fetch: async (l, o) => {
          const rows = await searchProjectMilestones(ctx.db, ctx.actor, within, q, l, o, COUNT_LIMIT + 1);
          total = rows[0]?.total;
          return rows.map((r) => ({ scope: 'milestones', milestone: r.milestone, projectPath: r.projectPath }));
        },
        count: async (cap) => total ?? (await searchProjectMilestones(ctx.db, ctx.actor, within, q, 1, 0, cap))[0]?.total ?? 0,
      });
    }
    case 'snippet_titles': {
      const list = searchSnippets(ctx, q);
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((v) => ({ scope: 'snippet_titles', v })), count: list.count });
    }
    case 'users': {
      // UsersFinder's search (User.search: relevance first), within the project's team or the group's hierarchy.
      const within = project
        ? teamMemberSql({ id: project.project.id, traversalIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [] })
        : group
          ? hierarchyMemberSql(ctx.actor, { id: group.namespace.id, traversalIds: group.namespace.traversalIds })
          : undefined;
      const filter = userListFilter(ctx, { search: q, within });
      const order = q.trim() ? ({ by: 'search_relevance' } as const) : ({ by: 'id', sort: 'desc' } as const);
      return withCount({
        fetch: async (l, o) => (await queryUsers(ctx.db, filter, order, l, o)).map((u) => ({ scope: 'users', u })),
        count: (cap) => countUsers(ctx.db, filter, cap),
      });
    }
  }
  // Project scopes only from here.
  if (!project) return empty;
  const facts = projectFacts(project);
  const readsCode = can(ctx.actor, 'project:download_code', facts);
  const context = { projectId: project.project.id, projectWebUrl: `${ctx.config.publicUrl}/${project.project.pathWithNamespace}` };
  switch (params.scope) {
    case 'notes': {
      let total: number | undefined;
      return {
        fetch: async (l, o) => {
          const rows = await searchProjectNotes(ctx.db, ctx.actor, project.project.id, q, readsCode, l, o);
          total = rows[0]?.total;
          return rows.map((r) => ({ scope: 'notes', n: r }));
        },
        count: async () => total ?? (await searchProjectNotes(ctx.db, ctx.actor, project.project.id, q, readsCode, 1, 0))[0]?.total ?? 0,
      };
    }
    case 'commits':
      if (!readsCode) return empty;
      return inMemory(async () => {
        // find_commits_by_message (git log --grep, at most 1000), then the commit the query names by id, if any.
        const rev = params.ref?.trim() || 'HEAD';
        const page = q.trim() ? await logPage(ctx.db, { projectId: project.project.id, rev, grep: q, limit: 1000, offset: 0 }) : undefined;
        const found = (page?.commits ?? []).map(commitView);
        const key = q.trim();
        if (/^[0-9a-f]{7,40}$/i.test(key)) {
          const byId = await resolveRevision(ctx.db, project.project.id, key.toLowerCase());
          if (byId && !found.some((c) => c.oid === byId.oid)) found.push(commitView(byId));
        }
        return found.map((c) => ({ scope: 'commits', c, context }));
      });
    case 'blobs':
      if (!readsCode) return empty;
      return inMemory(async () => {
        const query = parseBlobQuery(q);
        const ref = params.ref?.trim() || project.repository?.defaultBranch || 'HEAD';
        if (!query.term) return [];
        const files = (await searchFiles(ctx.db, project.project.id, ref, query.term, BATCH_SIZE)) ?? [];
        const utf8 = new TextDecoder();
        const rows: SearchRow[] = [];
        let chunks = 0;
        for (const f of files) {
          if (!passesFilters(f.path, query.filters)) continue;
          const blob = { basename: basenameOf(f.path), path: f.path, ref, projectId: project.project.id };
          if (!f.byContent) rows.push({ scope: 'blobs', b: { ...blob, id: f.oid, startline: 1, data: utf8.decode(f.data) } });
          else
            for (const chunk of contentChunks(utf8.decode(f.data), query.term)) {
              if (chunks++ >= BATCH_SIZE) break;
              rows.push({ scope: 'blobs', b: { ...blob, id: null, startline: chunk.startline, data: chunk.data } });
            }
        }
        return rows;
      });
    case 'wiki_blobs':
      // No wikis yet: nothing to find (13.6 answers [] for a project whose wiki is empty).
      return empty;
  }
  return empty;
}
