// Tag writes and the single-tag read, as GitLab 13.6's lib/api/tags.rb with Tags::CreateService and
// Tags::DestroyService (authorize_admin_tag: developers and up, what the policy calls push_code). A tag is a ref
// under refs/tags/ moved by compare-and-swap, with its push event (ref_type "tag") in the same batch. Protected tags
// are checked as 13.6's pre-receive Gitlab::Checks::TagCheck checks them (push-access.ts has the rule); the services
// turn its refusal into a 400 with the check's message, as they do any Gitlab::Git::PreReceiveError.
import { findRef } from '../../../db/queries/repositories/refs.ts';
import { resolveRevision } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { invalidMessage, notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import type { TagView } from '../entities.ts';
import { encodeTag } from '../git/tag.ts';
import { canCreateTag, isProtectedTag } from './push-access.ts';
import { isValidBranchName } from './ref-names.ts';
import { writeRefs } from '../store/ref-write.ts';
import { listTags } from '../reads/refs.ts';
import type { CreateTagParams } from '../schemas.ts';
import { commitView, repositoryFor } from '../service.ts';
import { prepareWrite, RefConflictError } from '../store/store.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const TAGS = 'refs/tags/';

// Ruby's String#strip (Tags::CreateService strips the message).
// eslint-disable-next-line no-control-regex
const RUBY_STRIP = /^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g;

/** GET repository/tags/:tag_name: the tag as the listing shows it; 404 `Tag Not Found`. */
export async function getTag({ ctx, input }: Verb<{ project: Ref | null; tag: string }>) {
  // The listing's prefix search narrows the read to names starting with the tag's; the exact name is picked here.
  const found = await listTags({
    ctx,
    input: { project: input.project, params: { search: `^${input.tag}`, sort: 'desc', order_by: 'name', page: 1, per_page: 20 } },
  });
  const tag = found.tags.find((t) => t.name === input.tag);
  if (!tag) throw notFound('Tag');
  return { ...found, tag };
}

/**
 * POST repository/tags. The checks in Tags::CreateService's order, each a 400 `{"message": ...}`: the name
 * (Gitlab::GitRefValidator, as for branches: "Tag name invalid"), then the target, which must resolve to a commit
 * ("Target <ref> is invalid"; Gitaly looks it up before the ref), then the name must be free ("Tag <name> already
 * exists", also when a racing request takes it first). A non-blank message makes an annotated tag whose tagger is the
 * caller (Gitaly's UserCreateTag); otherwise the ref points at the commit.
 */
export async function createTag({ ctx, input }: Verb<{ project: Ref | null; params: CreateTagParams }>) {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const { repository } = found;
  const p = input.params;
  if (!isValidBranchName(p.tag_name)) throw invalidMessage('Tag name invalid');
  const name = `${TAGS}${p.tag_name}`;
  const [target, existing] = await Promise.all([resolveRevision(ctx.db, repository.projectId, p.ref), findRef(ctx.db, repository.projectId, name)]);
  if (!target || repository.poolId === null) throw invalidMessage(`Target ${p.ref} is invalid`);
  if (existing !== undefined) throw invalidMessage(`Tag ${p.tag_name} already exists`);
  // TagCheck#protected_tag_checks: a matching protected tag needs its create level (can_create_tag?).
  if (!canCreateTag(ctx, found.facts, repository, p.tag_name)) throw invalidMessage('You are not allowed to create this tag as it is protected.');

  const message = p.message?.replace(RUBY_STRIP, '') ?? '';
  const user = ctx.actor.user!;
  const tagger = { name: user.name, email: user.email, time: Math.floor(Date.now() / 1000), tz: '+0000' };
  const write = message
    ? await prepareWrite([
        {
          type: 'tag',
          body: encodeTag({ object: target.oid, type: 'commit', tag: p.tag_name, tagger, headers: [], message: new TextEncoder().encode(message) }),
        },
      ])
    : undefined;
  const oid = write ? write.oids[0]! : target.oid;
  try {
    // Git::TagPushService's push data lists the tagged commit: one commit, its message the event's title.
    await writeRefs(ctx, {
      poolId: repository.poolId,
      write,
      refs: [{ projectId: repository.projectId, name, old: null, new: oid, commitCount: 1, lastCommitMessage: target.message }],
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw invalidMessage(`Tag ${p.tag_name} already exists`);
    throw error;
  }
  const tag: TagView = { name: p.tag_name, message, targetOid: oid, commit: commitView(target), protected: isProtectedTag(repository, p.tag_name) };
  return { ...found, tag };
}

/**
 * DELETE repository/tags/:tag_name: 404 `Tag Not Found` when absent; a tag matching a protected tag is refused for
 * everybody, maintainers and administrators too (13.6's TagCheck: "Protected tags cannot be deleted.", a 400 from
 * Tags::DestroyService); otherwise the ref is removed by compare-and-swap (a tag deleted meanwhile is not found
 * either) with a `removed` push event.
 */
export async function deleteTag({ ctx, input }: Verb<{ project: Ref | null; tag: string }>) {
  const found = await repositoryFor(ctx, input.project, 'project:push_code');
  const { repository } = found;
  const name = `${TAGS}${input.tag}`;
  const oid = repository.poolId === null ? undefined : await findRef(ctx.db, repository.projectId, name);
  if (oid === undefined) throw notFound('Tag');
  if (isProtectedTag(repository, input.tag)) throw invalidMessage('Protected tags cannot be deleted.');
  try {
    await writeRefs(ctx, {
      poolId: repository.poolId!,
      refs: [{ projectId: repository.projectId, name, old: oid, new: null, commitCount: 0, lastCommitMessage: null }],
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw notFound('Tag');
    throw error;
  }
}
