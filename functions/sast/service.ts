// configureSast (GitLab 13.6: Mutations::Security::CiConfiguration::ConfigureSast, authorize :push_code, and
// Security::CiConfiguration::SastCreateService): the SAST configuration GitLab's build actions write, committed on a
// new branch `set-sast-config-<n>` (Repository#next_branch) started from the default branch, with the new-merge-
// request URL for it on success; the commit's refusals are `status: "error"` with their messages.
import { parse } from 'yaml';
import { findRef, listRefs } from '../repositories/lookups.ts';
import type { RequestContext } from '../lib/context.ts';
import { DomainError, invalidMessage } from '../lib/errors.ts';
import { readConfig } from '../pipelines/create.ts';
import { commitToBranch } from '../repositories/writes/commits.ts';
import { canPushToBranch } from '../repositories/writes/push-access.ts';
import { repositoryFor } from '../repositories/service.ts';
import { sastBuildActions, type SastConfiguration } from './build-actions.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export type SastResult = { status: 'success'; successPath: string } | { status: 'error'; errors: string[] };

const BRANCH_PREFIX = 'set-sast-config';
const COMMIT_MESSAGE = 'Set .gitlab-ci.yml to enable or configure SAST';
const MR_DESCRIPTION =
  'Set .gitlab-ci.yml to enable or configure SAST security scanning using the GitLab managed template. You can [add variable overrides](https://docs.gitlab.com/ee/user/application_security/sast/#customizing-the-sast-settings) to customize SAST settings.';

/** Repository#next_branch: `<name>-<n>`, n one past the highest such branch (`<name>` itself counts as 1). */
export function nextBranch(name: string, branches: readonly string[]): string {
  const suffix = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}-([0-9]+)$`);
  const ids = branches.map((b) => (b === name ? 1 : Number(suffix.exec(b)?.[1] ?? 0)));
  return `${name}-${Math.max(0, ...ids) + 1}`;
}

/** Ruby's CGI.escape, as Hash#to_query writes query strings (space as +; only letters, digits and _.-~ kept). */
const cgiEscape = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** project_new_merge_request_url(project, merge_request: { source_branch:, description: }): keys sorted by to_query. */
const newMergeRequestUrl = (publicUrl: string, projectPath: string, branch: string) =>
  `${publicUrl}/${projectPath}/-/merge_requests/new?${cgiEscape('merge_request[description]')}=${cgiEscape(MR_DESCRIPTION)}&${cgiEscape('merge_request[source_branch]')}=${cgiEscape(branch)}`;

export async function configureSast({ ctx, input }: Verb<{ projectPath: string; configuration: SastConfiguration }>): Promise<SastResult> {
  const found = await repositoryFor(ctx, { path: input.projectPath }, 'project:push_code');
  const { repository } = found;
  const projectId = repository.projectId;
  try {
    const defaultBranch = repository.defaultBranch;
    const sha = defaultBranch === null ? undefined : await findRef(ctx.db, projectId, `refs/heads/${defaultBranch}`);
    // An empty repository has no branch to start from (Files::MultiService's validate_on_branch!).
    if (defaultBranch === null || sha === undefined) throw invalidMessage('You can only create or edit files when you are on a branch');
    const [file, refs] = await Promise.all([readConfig(ctx, projectId, sha), listRefs(ctx.db, projectId, 'refs/heads/')]);
    const branch = nextBranch(
      BRANCH_PREFIX,
      refs.map((r) => r.name.slice('refs/heads/'.length)),
    );
    if (!canPushToBranch(ctx, found.facts, repository, branch)) throw invalidMessage('You are not allowed to push into this branch');
    // YAML.safe_load reads YAML 1.1 (`on`, `yes` are booleans), as the file is written back.
    const action = sastBuildActions(input.configuration, file === null ? undefined : parse(file, { version: '1.1' }));
    await commitToBranch(ctx, repository, {
      branch,
      startBranch: defaultBranch,
      message: COMMIT_MESSAGE,
      actions: [{ action: action.action, file_path: action.filePath, content: action.content, encoding: 'text' }],
    });
    return { status: 'success', successPath: newMergeRequestUrl(ctx.config.publicUrl, found.project.project.pathWithNamespace, branch) };
  } catch (e) {
    // Files::MultiService's refusals (result[:message]) become the payload's errors.
    if (e instanceof DomainError && e.problem.code === 'invalid' && e.problem.kind === 'message') return { status: 'error', errors: [e.problem.message] };
    throw e;
  }
}
