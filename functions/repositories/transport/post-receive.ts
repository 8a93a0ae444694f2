// What GitLab 13.6 does and says once a push has landed: push options (Gitlab::PushOptions: `ci.skip`, `ci.variable`, the
// `merge_request.*` ones MergeRequests::PushOptionsHandlerService applies, to a new merge request or the open one) and the post-receive messages git prints
// as `remote:` lines (PostReceiveService): alerts first (framed, centred), then for every pushed branch but the
// default one a link to create its merge request, or to the open one (MergeRequests::GetUrlsService).
import { createMergeRequest } from '../../merge-requests/create.ts';
import { updateMergeRequest } from '../../merge-requests/update.ts';
import { mergeWhenPipelineSucceedsByPush } from '../../merge-requests/merge.ts';
import { openMergeRequestLinks } from '../../merge-requests/lookups.ts';
import { DomainError, fullMessages } from '../../lib/errors.ts';
import type { ReceiveScope } from './receive-pack.ts';

const HEADS = 'refs/heads/';
/** PushOptionsHandlerService::LIMIT: merge request options act on at most this many branches. */
const BRANCH_LIMIT = 10;

export interface PushOptions {
  ciSkip: boolean;
  /** `ci.variable="<key>=<value>"`, each once: variables of the pipelines the push makes. */
  ciVariables: { key: string; value: string }[];
  mergeRequest: {
    create: boolean;
    target?: string;
    title?: string;
    description?: string;
    removeSourceBranch?: boolean;
    mergeWhenPipelineSucceeds?: boolean;
    labels: string[];
    unlabels: string[];
  } | null;
  /** The options as given, for the warning that quotes them. */
  given: string[];
}

/**
 * Gitlab::PushOptions: `<namespace>.<key>[=<value>]`, `mr.` an alias of `merge_request.`, the value stripped and
 * an empty one meaning true; unknown namespaces and keys are ignored; the last value of a key wins.
 */
export function parsePushOptions(lines: readonly string[]): PushOptions {
  const options: PushOptions = { ciSkip: false, ciVariables: [], mergeRequest: null, given: [...lines] };
  for (const line of lines) {
    const match = /^([^.]+)\.([^=]+)=?(.*)$/s.exec(line);
    if (!match) continue;
    const namespace = match[1] === 'mr' ? 'merge_request' : match[1];
    const key = match[2]!;
    const value = match[3]!.trim();
    if (namespace === 'ci' && key === 'skip') options.ciSkip = true;
    if (namespace === 'ci' && key === 'variable') {
      // A multi-value option (counted per distinct value); the variable is split at its first `=`.
      const at = value.indexOf('=');
      const variable = at > 0 ? { key: value.slice(0, at), value: value.slice(at + 1) } : null;
      if (variable && !options.ciVariables.some((v) => v.key === variable.key && v.value === variable.value)) options.ciVariables.push(variable);
    }
    if (namespace !== 'merge_request') continue;
    const mr = (options.mergeRequest ??= { create: false, labels: [], unlabels: [] });
    if (key === 'create') mr.create = true;
    else if (key === 'target' && value) mr.target = value;
    else if (key === 'title' && value) mr.title = value;
    else if (key === 'description') mr.description = value;
    else if (key === 'remove_source_branch') mr.removeSourceBranch = true;
    else if (key === 'merge_when_pipeline_succeeds') mr.mergeWhenPipelineSucceeds = true;
    else if (key === 'label' && value) mr.labels.push(value);
    else if (key === 'unlabel' && value) mr.unlabels.push(value);
  }
  return options;
}

interface Moved {
  name: string;
  new: string | null;
}

/**
 * The `remote:` text after a push that landed: the push options' warnings, then the merge request links, then where
 * the project moved when the push came through a former path (Gitlab::Checks::ContainerMoved), then the project the
 * push created (Gitlab::Checks::ProjectCreated).
 */
export async function postReceiveMessages(scope: ReceiveScope, moved: readonly Moved[], options: PushOptions): Promise<string> {
  const branches = moved
    .filter((c) => c.new !== null && c.name.startsWith(HEADS))
    .map((c) => c.name.slice(HEADS.length))
    .filter((b) => b !== scope.repository.defaultBranch);
  let out = '';
  if (options.mergeRequest) {
    const heads = new Map(moved.flatMap((c) => (c.new !== null && c.name.startsWith(HEADS) ? [[c.name.slice(HEADS.length), c.new] as const] : [])));
    const errors = await applyMergeRequestOptions(scope, branches, heads, options.mergeRequest);
    if (errors.length) out += alert(`WARNINGS:\nError encountered with push options ${options.given.map((o) => `'${o}'`).join(' ')}: ${errors.join('. ')}`);
  }
  if (branches.length && scope.mergeRequestsEnabled && scope.printMergeRequestLinks) {
    const open = await openMergeRequestLinks(scope.ctx.db, scope.repository.projectId, branches);
    const base = scope.ctx.config.publicUrl;
    for (const branch of branches) {
      const mr = open.filter((m) => m.sourceBranch === branch).at(-1);
      out += mr
        ? message(`View merge request for ${branch}:\n  ${base}/${mr.targetPath}/-/merge_requests/${mr.iid}`)
        : message(
            `To create a merge request for ${branch}, visit:\n  ${scope.webUrl}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`,
          );
    }
  }
  if (scope.movedFrom) {
    out += message(
      `Project '${scope.movedFrom}' was moved to '${scope.fullPath}'.\n\nPlease update your Git remote:\n\n  git remote set-url origin ${scope.webUrl}.git`,
    );
  }
  if (scope.created) {
    out += message(
      `The private project ${scope.fullPath} was successfully created.\n\nTo configure the remote, run:\n  git remote add origin ${scope.webUrl}.git\n\nTo view the project, visit:\n  ${scope.webUrl}`,
    );
  }
  return out;
}

/** A basic message as Gitaly's printMessages writes it. */
const message = (text: string) => `\n${text}\n\n`;

/** An alert (printAlert): framed by 72 `=`, the words re-flowed in lines of at most 68, each centred in 72. */
export function alert(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > 68) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  const centred = lines.map((l) => `${' '.repeat(Math.floor((72 - l.length) / 2))}${l}`);
  return `${'='.repeat(72)}\n\n${centred.join('\n')}\n\n${'='.repeat(72)}\n`;
}

/** PushOptionsHandlerService: each pushed branch gets its merge request (with `create`) into the target. */
async function applyMergeRequestOptions(
  scope: ReceiveScope,
  branches: readonly string[],
  heads: ReadonlyMap<string, string>,
  mr: NonNullable<PushOptions['mergeRequest']>,
): Promise<string[]> {
  // merge_when_pipeline_succeeds: the merge request merges, as the pusher, once the pushed commit's pipeline succeeds.
  const autoMerge = async (targetPath: string | number, iid: number, branch: string) => {
    if (!mr.mergeWhenPipelineSucceeds) return;
    const project = typeof targetPath === 'number' ? { id: targetPath } : { path: targetPath };
    await mergeWhenPipelineSucceedsByPush({ ctx: scope.ctx, input: { project, iid, sha: heads.get(branch)! } });
  };
  if (!branches.length) return [];
  if (branches.length > BRANCH_LIMIT) return [`Too many branches pushed (${branches.length} were pushed, limit is ${BRANCH_LIMIT})`];
  if (!scope.mergeRequestsEnabled) return [`Merge requests are not enabled for project ${scope.fullPath}`];
  const target = mr.target ?? scope.repository.defaultBranch;
  const open = await openMergeRequestLinks(scope.ctx.db, scope.repository.projectId, branches);
  const errors: string[] = [];
  for (const branch of branches) {
    const existing = open.filter((m) => m.sourceBranch === branch).at(-1);
    if (existing) {
      // An open merge request is updated with the options given (PushOptionsHandlerService#update!).
      const params = {
        ...(mr.title !== undefined && { title: mr.title }),
        ...(mr.description !== undefined && { description: mr.description }),
        ...(mr.target !== undefined && { target_branch: mr.target }),
        ...(mr.removeSourceBranch && { remove_source_branch: true }),
        ...(mr.labels.length && { add_labels: mr.labels }),
        ...(mr.unlabels.length && { remove_labels: mr.unlabels }),
      };
      try {
        if (Object.keys(params).length)
          await updateMergeRequest({ ctx: scope.ctx, input: { project: { path: existing.targetPath }, iid: existing.iid, params } });
        await autoMerge(existing.targetPath, existing.iid, branch);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        errors.push(describe(error));
      }
      continue;
    }
    if (!mr.create) {
      errors.push(`A merge_request.create push option is required to create a merge request for branch ${branch}`);
      continue;
    }
    try {
      const created = await createMergeRequest({
        ctx: scope.ctx,
        input: {
          project: { id: scope.repository.projectId },
          params: {
            source_branch: branch,
            target_branch: target ?? '',
            title: mr.title ?? humanize(branch),
            ...(mr.description !== undefined && { description: mr.description }),
            ...(mr.removeSourceBranch && { remove_source_branch: true }),
            ...(mr.labels.length && { labels: mr.labels }),
          },
        },
      });
      await autoMerge(created.mr.targetProjectId, created.mr.iid, branch);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      errors.push(describe(error));
    }
  }
  return errors;
}

/** MergeRequests::BuildService's title from a branch name: `source_branch.titleize.humanize`. */
const humanize = (branch: string) => {
  const words = branch.replace(/[-_]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A refused merge request's errors as the warning quotes them (the model's full messages, or the service's). */
function describe(error: DomainError): string {
  const p = error.problem;
  if (p.code === 'unprocessable') return p.messages.join(', ');
  if (p.code === 'conflict') return typeof p.message === 'string' ? p.message : Array.isArray(p.message) ? p.message.join(', ') : 'An unknown error occurred';
  if (p.code === 'invalid' && p.kind === 'model') return fullMessages(p.fields).join(', ');
  if (p.code === 'invalid' && p.kind === 'message') return p.message;
  if (p.code === 'forbidden' || p.code === 'not_found') return 'User access was denied';
  return 'An unknown error occurred';
}
