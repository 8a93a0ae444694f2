// The reads of the deploy tokens domain's queries other domains use (own-queries in .dependency-cruiser.cjs): git's
// transport authenticates a fetch with one. A leaf: it imports only db/queries and lib.
import { findDeployTokenFor } from '../../db/queries/deploy-tokens.ts';
import type { Db } from '../../db/client.ts';
import type { DeployTokenRow } from '../../db/schema/index.ts';
import { sha256Hex } from '../lib/crypto.ts';

/** DeployToken#username: the one given, or GitLab's default. */
export const deployTokenUsername = (t: Pick<DeployTokenRow, 'id' | 'username'>) => t.username ?? `gitlab+deploy-token-${t.id}`;

/**
 * Whether Basic credentials are a deploy token that may fetch the project (Gitlab::Auth#deploy_token_check): the
 * token unexpired, of the project or of a group above it, the login its username, and read_repository among its
 * scopes.
 */
export async function deployTokenReads(db: Db, login: string, password: string, projectId: number): Promise<boolean> {
  if (!password) return false;
  const token = await findDeployTokenFor(db, await sha256Hex(password), projectId);
  if (!token) return false;
  return login === deployTokenUsername(token) && token.scopes.includes('read_repository');
}
