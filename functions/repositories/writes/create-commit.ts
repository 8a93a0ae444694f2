// POST repository/commits (GitLab 13.6 lib/api/commits.rb): `authorize! :download_code` for the whole API, then
// authorize_push_to_branch! (403 "You are not allowed to push into this branch"), then Files::MultiService, whose
// refusals are 400 `{"message": ...}`; 201 with the new commit as Entities::CommitDetail.
import type { RequestContext } from '../../lib/context.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { commitToBranch } from './commits.ts';
import { canPushToBranch } from './push-access.ts';
import type { CreateCommitParams } from '../schemas.ts';
import { repositoryFor } from '../service.ts';
import { findProject } from '../../projects/service.ts';
import { nameWithNamespace } from '../../projects/schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function createCommit({ ctx, input }: Verb<{ project: Ref | null; params: CreateCommitParams }>) {
  const found = await repositoryFor(ctx, input.project, 'project:download_code');
  const p = input.params;
  // `start_project`: find_project! (404 when unreadable), then Project#forked_from?: only the project this one was
  // forked from, whose objects its pool shares (a fork joins its source's pool).
  let startProjectId: number | undefined;
  if (p.start_project !== undefined) {
    const start = await findProject(ctx, p.start_project);
    if (found.project.project.forkedFromId !== start.project.id) {
      throw forbidden(`Project is not included in the fork network for ${nameWithNamespace(start.project, start.namespace)}`);
    }
    startProjectId = start.project.id;
  }
  if (!canPushToBranch(ctx, found.facts, found.repository, p.branch)) throw forbidden('You are not allowed to push into this branch');
  const commit = await commitToBranch(ctx, found.repository, {
    branch: p.branch,
    message: p.commit_message,
    actions: p.actions,
    startBranch: p.start_branch,
    startSha: p.start_sha,
    authorName: p.author_name,
    authorEmail: p.author_email,
    force: p.force,
    startProjectId,
  });
  return { ...found, commit };
}
