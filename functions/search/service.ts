// The search API (GitLab 13.6 lib/api/search.rb, SearchService and Gitlab::{,Group,Project}SearchResults), basic
// search: each scope is the list verb of its own domain, with the finder parameters GitLab's search passes to it, so
// what a search finds is exactly what the reader may list (the same read rules, in the same SQL).
import type { SQL } from 'drizzle-orm';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { can } from '../lib/policy.ts';
import { requireUser } from '../lib/auth.ts';
import { findGroup } from '../groups/service.ts';
import { hierarchyMemberSql, namespaceScope } from '../groups/lookups.ts';
import { searchMilestones } from '../milestones/service.ts';
import { searchNotes } from '../notes/reads.ts';
import { teamMemberSql } from '../projects/lookups.ts';
import { searchCommits, searchFiles } from '../repositories/reads/search.ts';
import { listIssues } from '../issues/service.ts';
import { listMergeRequests } from '../merge-requests/service.ts';
import { findProject, listProjects, projectFacts } from '../projects/service.ts';
import { searchSnippets } from '../snippets/service.ts';
import { searchUsers } from '../users/service.ts';
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
      const list = searchMilestones(ctx, project ? { projectId: project.project.id } : group ? { groupId: group.namespace.id } : null, q);
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((m) => ({ scope: 'milestones', ...m })), count: list.count });
    }
    case 'snippet_titles': {
      const list = searchSnippets(ctx, q);
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((v) => ({ scope: 'snippet_titles', v })), count: list.count });
    }
    case 'users': {
      // Within the project's team or the group's hierarchy (GroupSearchResults#users: groups the reader may see).
      const within: SQL | undefined = project
        ? teamMemberSql({ id: project.project.id, traversalIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [] })
        : group
          ? hierarchyMemberSql(ctx.actor, { id: group.namespace.id, traversalIds: group.namespace.traversalIds })
          : undefined;
      const list = searchUsers(ctx, q, within);
      return withCount({ fetch: async (l, o) => (await list.fetch(l, o)).map((u) => ({ scope: 'users', u })), count: list.count });
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
          const rows = await searchNotes(ctx, project.project.id, q, readsCode, l, o);
          total = rows[0]?.total;
          return rows.map((r) => ({ scope: 'notes', n: r }));
        },
        count: async () => total ?? (await searchNotes(ctx, project.project.id, q, readsCode, 1, 0))[0]?.total ?? 0,
      };
    }
    case 'commits':
      if (!readsCode) return empty;
      return inMemory(async () =>
        (await searchCommits(ctx, project.project.id, q, params.ref?.trim() || 'HEAD')).map((c) => ({ scope: 'commits', c, context })),
      );
    case 'blobs':
      if (!readsCode) return empty;
      return inMemory(async () => {
        const query = parseBlobQuery(q);
        const ref = params.ref?.trim() || project.repository?.defaultBranch || 'HEAD';
        if (!query.term) return [];
        const files = (await searchFiles(ctx, project.project.id, ref, query.term, BATCH_SIZE)) ?? [];
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
