// The files API's writes (GitLab 13.6 lib/api/files.rb with Files::CreateService/UpdateService/DeleteService):
// `authorize! :push_code` (403), then one action committed through commits.ts; the services' refusals, the branch's
// protection included ("You are not allowed to push into this branch", Commits::CreateService#
// validate_permissions!), are 400 `{"message": ...}`.
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { commitToBranch } from './commits.ts';
import { canPushToBranch } from './push-access.ts';
import type { DeleteFileParams, WriteFileParams } from '../schemas.ts';
import { repositoryFor } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

type FileWrite = { project: Ref | null; filePath: string } & (
  { action: 'create' | 'update'; params: WriteFileParams } | { action: 'delete'; params: DeleteFileParams }
);

const UPDATED_SINCE = () => 'You are attempting to update a file that has changed since you started editing it.';

export async function writeFile({ ctx, input }: Verb<FileWrite>): Promise<{ file_path: string; branch: string }> {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const p = input.params;
  if (!canPushToBranch(ctx, found.facts, found.repository, p.branch)) throw invalidMessage('You are not allowed to push into this branch');
  const written = 'content' in p ? p : undefined;
  await commitToBranch(ctx, found.repository, {
    branch: p.branch,
    message: p.commit_message,
    startBranch: p.start_branch,
    authorName: p.author_name,
    authorEmail: p.author_email,
    changedMessage: UPDATED_SINCE,
    actions: [
      {
        action: input.action,
        file_path: input.filePath,
        content: written?.content,
        encoding: written?.encoding ?? 'text',
        last_commit_id: written?.last_commit_id,
      },
    ],
  });
  return { file_path: input.filePath, branch: p.branch };
}
