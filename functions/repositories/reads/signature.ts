// GET repository/commits/:sha/signature (GitLab 13.6 commits.rb): `user_project.commit(params[:sha])` or 404
// `Commit Not Found`, `commit.has_signature?` or 404 `Signature Not Found`, then Entities::CommitSignature. The
// signature is git's `gpgsig` header and the signed text the commit object without it; which stored key made it and
// what that proves is the GPG keys domain's (functions/gpg-keys/signatures.ts). A read: nothing is cached.
import { resolveCommitObject } from '../../../db/queries/repositories/reads.ts';
import { verifyCommitSignature } from '../../gpg-keys/signatures.ts';
import type { CommitSignatureView } from '../../gpg-keys/schemas.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { decodeCommit, extractSignature } from '../git/commit.ts';
import { projectFor } from '../service.ts';

/** Gitaly's signature type of a `gpgsig` value, by its armor's first line (13.6: PGP and X509; anything else none). */
const signatureType = (signature: string) =>
  signature.startsWith('-----BEGIN PGP SIGNATURE-----') ? 'PGP' : signature.startsWith('-----BEGIN SIGNED MESSAGE-----') ? 'X509' : null;

/**
 * The commit's PGP signature as 13.6 presents it. X.509 (S/MIME) signatures, which 13.6 verifies against the
 * certificates of its X509 tables, have no such tables here and answer as unsigned commits do. A PGP signature that
 * does not parse leaves 13.6 with no signature record to present; it answers `unverified` here.
 */
export async function commitSignature({ ctx, input }: { ctx: RequestContext; input: { project: Ref | null; sha: string } }): Promise<CommitSignatureView> {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const commit = await resolveCommitObject(ctx.db, found.context.projectId, input.sha);
  if (!commit) throw notFound('Commit');
  const parts = extractSignature(commit.data);
  if (!parts || signatureType(parts.signature) !== 'PGP') throw notFound('Signature');
  const committerEmail = decodeCommit(commit.data).committer.email;
  const view = await verifyCommitSignature(ctx, { signature: parts.signature, signed: parts.signed, committerEmail });
  return (
    view ?? {
      verificationStatus: 'unverified',
      gpgKeyId: null,
      gpgKeyPrimaryKeyid: null,
      gpgKeyUserName: null,
      gpgKeyUserEmail: null,
      gpgKeySubkeyId: null,
    }
  );
}
