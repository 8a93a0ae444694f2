// Who is fetching or pushing over git's HTTP transport (GitLab 13.6 Gitlab::Auth.find_for_git_client): HTTP Basic,
// where the password is a personal access token (any login), an OAuth access token (login `oauth2`), a running CI
// job's token (login `gitlab-ci-token`, fetching only) or the user's password. And what each may do: a token's
// scopes grant download (api, read_api, read_repository, write_repository) and push (api, write_repository), as
// GitLab's abilities_for_scopes; a password grants what the user may.
import { findRunningJobByTokenDigest } from '../../../db/queries/lib/auth.ts';
import { tokenActor } from '../../lib/auth.ts';
import { anonymous, type Actor, type RequestContext } from '../../lib/context.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { DomainError } from '../../lib/errors.ts';
import { checkPassword } from '../../users/authenticate.ts';

export type GitAccess = 'download' | 'push';

const SCOPES: Record<GitAccess, readonly string[]> = {
  download: ['api', 'read_api', 'read_repository', 'write_repository'],
  push: ['api', 'write_repository'],
};

/** Whether the credential (not the user's role) allows `access`: a token's scopes; a job token only downloads. */
export function credentialAllows(actor: Actor, access: GitAccess): boolean {
  if (actor.via === 'password') return true;
  if (actor.via === 'job_token') return access === 'download';
  return actor.scopes.some((s) => SCOPES[access].includes(s));
}

/** Basic credentials from the Authorization header, or null when there are none (or they are not Basic). */
export function basicCredentials(header: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const at = decoded.indexOf(':');
  return at < 0 ? null : { login: decoded.slice(0, at), password: decoded.slice(at + 1) };
}

/** A request GitLab answers with 401 and the Basic challenge (no credentials, or ones that match nothing). */
export class GitUnauthorized extends Error {}

/** The actor behind the request's Basic credentials (anonymous without any); GitUnauthorized when they match nothing. */
export async function gitActor(ctx: RequestContext, header: string | undefined, ip: string): Promise<Actor> {
  const credentials = basicCredentials(header);
  if (!credentials) return anonymous;
  const { login, password } = credentials;
  if (!password) throw new GitUnauthorized();
  let actor: Actor | null = null;
  try {
    if (login === 'gitlab-ci-token') {
      const job = await findRunningJobByTokenDigest(ctx.db, await sha256Hex(password));
      actor = job ? { user: job.user, scopes: [], via: 'job_token' } : null;
    } else {
      actor = await tokenActor(ctx, password, login === 'oauth2' ? ['oauth_token'] : ['personal_access_token']);
      if (!actor && login !== 'oauth2') {
        // Every git request signs in again: only failures count towards the IP's limit.
        const check = await checkPassword(ctx, ip, login, password, { ipCountsFailuresOnly: true });
        actor = check.ok ? { user: check.user, scopes: [], via: 'password' } : null;
      }
    }
  } catch (error) {
    // Revoked or expired tokens and a locked account: for git, as every other failure, 401.
    if (error instanceof DomainError) throw new GitUnauthorized();
    throw error;
  }
  if (!actor?.user || actor.user.state !== 'active') throw new GitUnauthorized();
  return actor;
}
