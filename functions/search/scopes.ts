// The search API's scopes (GitLab 13.6 EE, lib/api/helpers/search_helpers.rb and its EE module). The instance, a
// group and a project each have their own list; a scope outside it is Grape's `scope does not have a valid value`.
// The Elasticsearch scopes are declared at the instance and group levels, as EE declares them, and answered 400
// without Elasticsearch (basic search: this service has no Elasticsearch).

export const ELASTICSEARCH_SCOPES = ['wiki_blobs', 'blobs', 'commits', 'notes'] as const;
export const GLOBAL_SCOPES = [...ELASTICSEARCH_SCOPES, 'projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'] as const;
export const GROUP_SCOPES = [...ELASTICSEARCH_SCOPES, 'projects', 'issues', 'merge_requests', 'milestones', 'users'] as const;
export const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs', 'users'] as const;
/** SearchHelpers.search_states: issues and merge requests only; other scopes ignore it. */
export const SEARCH_STATES = ['all', 'opened', 'closed', 'merged'] as const;

export type SearchScope = (typeof GLOBAL_SCOPES)[number] | (typeof PROJECT_SCOPES)[number];
export type SearchState = (typeof SEARCH_STATES)[number];

export const needsElasticsearch = (scope: SearchScope) => (ELASTICSEARCH_SCOPES as readonly string[]).includes(scope);
