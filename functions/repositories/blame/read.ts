// GET repository/files/:file_path/blame (GitLab 13.6 files.rb): assign_file_vars! (404 `Commit Not Found`, 404
// `File Not Found`), the file's X-Gitlab-* headers, and Gitlab::Blame's groups. Three statements after the token's:
// the project, the history of the path with its blobs (repositories/blame.ts), and the last commit for the headers.
import { blameHistory } from '../../../db/queries/repositories/blame.ts';
import { logPage } from '../../../db/queries/repositories/reads.ts';
import { GIT_OBJECT_TYPES } from '../../../db/schema/repositories.ts';
import { toHex } from '../../lib/crypto.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { blame, blameGroups, type BlameNode } from './blame.ts';
import type { CommitView, FileView } from '../entities.ts';
import { commitView, projectFor } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface BlameGroupView {
  commit: CommitView;
  /** The group's lines, decoded as UTF-8 (GitLab's encode_utf8 of git's output). */
  lines: string[];
}

const utf8 = new TextDecoder();

export async function getBlame({ ctx, input }: Verb<{ project: Ref | null; path: string; ref: string }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const projectId = found.context.projectId;
  const history = await blameHistory(ctx.db, { projectId, rev: input.ref, path: input.path });
  if (!history) throw notFound('Commit');
  const entry = history.entry;
  if (!entry || entry.type !== GIT_OBJECT_TYPES.blob) throw notFound('File');

  // Each row says who hands lines down to it; blame.ts wants each node's parents.
  const parents = new Map<string, { parent: number; node: string }[]>();
  let start: string | undefined;
  for (const n of history.nodes) {
    for (const from of n.from) {
      if (from.node === null) start = n.commit.oid;
      else parents.set(from.node, [...(parents.get(from.node) ?? []), { parent: from.parent, node: n.commit.oid }]);
    }
  }
  const nodes = new Map<string, BlameNode>();
  const commits = new Map<string, CommitView>();
  for (const { commit, blob } of history.nodes) {
    commits.set(commit.oid, commitView(commit));
    nodes.set(commit.oid, { oid: commit.oid, generation: commit.generation, blob, parents: parents.get(commit.oid) ?? [] });
  }
  const content = history.blobs.get(entry.oid);
  if (start === undefined || !content) throw new Error(`blame: the history of ${input.path} at ${history.commitOid} is incomplete`);
  const groups = blameGroups(blame(start, nodes, history.blobs)).map((g): BlameGroupView => ({
    commit: commits.get(g.commit)!,
    lines: g.lines.map((l) => utf8.decode(l.text)),
  }));

  // From the resolved commit (not `ref` again): a ref moved in between cannot make the two disagree.
  const log = await logPage(ctx.db, { projectId, rev: history.commitOid, path: input.path, limit: 1, offset: 0 });
  const file: FileView = {
    path: input.path,
    content,
    contentSha256: toHex(await crypto.subtle.digest('SHA-256', content as Uint8Array<ArrayBuffer>)),
    ref: input.ref,
    blobOid: entry.oid,
    commitOid: history.commitOid,
    lastCommitOid: log?.commits[0]?.oid ?? history.commitOid,
  };
  return { ...found, file, groups };
}
