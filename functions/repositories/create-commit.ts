// POST repository/commits (GitLab 13.6 lib/api/commits.rb): `authorize! :download_code` for the whole API, then
// authorize_push_to_branch! (403 "You are not allowed to push into this branch"), then Files::MultiService, whose
// refusals are 400 `{"message": ...}`; 201 with the new commit as Entities::CommitDetail.
import type { RequestContext } from '../lib/context.ts';
import { forbidden } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { commitToBranch } from './commits.ts';
import { canPushToBranch } from './push-access.ts';
import type { CreateCommitParams } from './schemas.ts';
import { repositoryFor } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function createCommit({ ctx, input }: Verb<{ project: Ref | null; params: CreateCommitParams }>) {
  const found = await repositoryFor(ctx, input.project, 'project:download_code');
  const p = input.params;
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
  });
  return { ...found, commit };
}
