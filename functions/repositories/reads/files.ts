// Tree, blob and file reads (GitLab 13.6 lib/api/repositories.rb and files.rb). Each is the project's statement
// plus one read statement that resolves the revision and walks the path itself (repositories/reads.ts); a file adds
// the log statement for its last commit: 4 queries with the token's whatever the file's depth.
import { logPage, readObjects, readPath, treePage } from '../../../db/queries/repositories/reads.ts';
import { GIT_OBJECT_TYPES } from '../../../db/schema/repositories.ts';
import { toHex } from '../../lib/crypto.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import type { FileView, TreeEntryView } from '../entities.ts';
import type { TreeParams } from '../schemas.ts';
import { projectFor } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const FULL_OID = /^[0-9a-f]{40}$/i;
const utf8 = new TextDecoder();

/**
 * GET repository/tree: `ref` or the default branch; 404 `Tree Not Found` when the ref names no commit (an empty
 * repository too). A path that is not a directory there lists nothing (200 `[]`): 13.6 presents the sorted entries
 * of whatever `repository.tree` found, and only a missing commit is a 404.
 */
export async function listTree({ ctx, input }: Verb<{ project: Ref | null; params: TreeParams }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const p = input.params;
  const rev = p.ref ?? 'HEAD';
  const fetch = async (limit: number, offset: number) => {
    const page = await treePage(ctx.db, { projectId: found.context.projectId, rev, path: p.path ?? '', recursive: p.recursive, limit, offset });
    if (!page) throw notFound('Tree');
    if (!page.entries) return { entries: [] as TreeEntryView[], total: 0 };
    const entries = page.entries.map((e): TreeEntryView => ({ oid: e.oid, name: utf8.decode(e.name), path: utf8.decode(e.path), mode: e.mode }));
    return { entries, total: page.total };
  };
  return { ...found, fetch };
}

/**
 * GET repository/blobs/:sha (and /raw): the blob with that id in the project's pool; anything else (a commit's id,
 * a ref name, an id the pool lacks) is 404 `Blob Not Found`, as Gitaly's GetBlob finds nothing then.
 */
export async function getBlob({ ctx, input }: Verb<{ project: Ref | null; sha: string }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const oid = input.sha.toLowerCase();
  const [blob] = FULL_OID.test(oid) ? await readObjects(ctx.db, found.context.projectId, [oid]) : [];
  if (!blob || blob.type !== GIT_OBJECT_TYPES.blob) throw notFound('Blob');
  return { ...found, blob: { oid: blob.oid, content: blob.data } };
}

/**
 * files.rb's assign_file_vars! and blob_data: the commit `ref` names (404 `Commit Not Found`), the blob at the path
 * (404 `File Not Found`: missing, a directory or a submodule), and the last commit that touched the path. `ref`
 * undefined (the raw endpoint's optional ref) reads the default branch and reports an empty `ref`.
 */
export async function getFile({ ctx, input }: Verb<{ project: Ref | null; path: string; ref: string | undefined }>): Promise<FileView> {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const projectId = found.context.projectId;
  const rev = input.ref ?? 'HEAD';
  const object = await readPath(ctx.db, { projectId, rev, path: input.path });
  if (!object) throw notFound('Commit');
  if (object.oid === undefined || object.type !== GIT_OBJECT_TYPES.blob || !object.data) throw notFound('File');
  // From the resolved commit (not `rev` again): a ref moved in between cannot make the two disagree.
  const log = await logPage(ctx.db, { projectId, rev: object.commitOid, path: input.path, limit: 1, offset: 0 });
  return {
    path: input.path,
    content: object.data,
    contentSha256: toHex(await crypto.subtle.digest('SHA-256', object.data as Uint8Array<ArrayBuffer>)),
    ref: input.ref ?? '',
    blobOid: object.oid,
    commitOid: object.commitOid,
    lastCommitOid: log?.commits[0]?.oid ?? object.commitOid,
  };
}
