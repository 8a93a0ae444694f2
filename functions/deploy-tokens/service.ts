// Deploy tokens (GitLab 13.6's deploy_tokens.rb with Projects::/Groups::DeployTokens::CreateService): a project's or
// a group's maintainers list, create (the token shown once, stored as a digest) and delete them; administrators list
// the instance's. A token with read_repository fetches the project's repository (or the group's projects') over git.
import * as q from '../../db/queries/deploy-tokens.ts';
import type { DeployTokenRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';
import { invalidMessage, notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { requireAdmin } from '../users/service.ts';
import { requireUser } from '../lib/auth.ts';
import { deployTokenUsername } from './lookups.ts';

type Kind = q.TokenOwner['kind'];
type Verb<I> = { ctx: RequestContext; input: { kind: Kind; ref: Ref | null } & I };

/** DeployToken::AVAILABLE_SCOPES in 13.6. */
export const DEPLOY_TOKEN_SCOPES = ['read_repository', 'read_registry', 'write_registry', 'read_package_registry', 'write_package_registry'] as const;

/** DeployToken's username format. */
const USERNAME = /^[a-zA-Z0-9.+_-]+$/;

async function owner(ctx: RequestContext, kind: Kind, ref: Ref | null): Promise<q.TokenOwner> {
  requireUser(ctx);
  if (kind === 'project') {
    const p = await findProject(ctx, ref);
    assertCan(ctx.actor, 'project:admin_deploy_tokens', projectFacts(p));
    return { kind, id: p.project.id };
  }
  const g = await findGroup(ctx, ref);
  assertCan(ctx.actor, 'group:admin_deploy_tokens', groupFacts(g));
  return { kind, id: g.namespace.id };
}

export function listAllDeployTokens({ ctx }: { ctx: RequestContext }) {
  requireAdmin(ctx);
  return {
    fetch: (limit: number, offset: number) => q.listDeployTokens(ctx.db, null, limit, offset),
    count: (limit: number) => q.countDeployTokens(ctx.db, null, limit),
  };
}

export async function listDeployTokens({ ctx, input }: Verb<object>) {
  const o = await owner(ctx, input.kind, input.ref);
  return {
    fetch: (limit: number, offset: number) => q.listDeployTokens(ctx.db, o, limit, offset),
    count: (limit: number) => q.countDeployTokens(ctx.db, o, limit),
  };
}

/** The model's errors as CreateService answers them: 400 with the full messages as a sentence. */
export async function createDeployToken({
  ctx,
  input,
}: Verb<{ name: string; scopes: string[]; expires_at?: Date | undefined; username?: string | undefined }>) {
  const o = await owner(ctx, input.kind, input.ref);
  const errors = [
    ...(input.name.trim() ? [] : ["Name can't be blank"]),
    ...(input.username && !USERNAME.test(input.username) ? ["Username can contain only letters, digits, '_', '-', '+', and '.'"] : []),
    ...(input.scopes.length ? [] : ["Scopes can't be blank"]),
  ];
  if (errors.length) throw invalidMessage(errors.join(' and '));
  const token = randomToken('');
  const row = await q.insertDeployToken(ctx.db, {
    projectId: o.kind === 'project' ? o.id : null,
    groupId: o.kind === 'group' ? o.id : null,
    name: input.name,
    username: input.username || null,
    tokenDigest: await sha256Hex(token),
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expires_at ?? null,
  });
  return { row, token };
}

export async function deleteDeployToken({ ctx, input }: Verb<{ id: number | null }>) {
  const o = await owner(ctx, input.kind, input.ref);
  if (input.id === null || !(await q.deleteDeployToken(ctx.db, o, input.id))) throw notFound('Deploy Token');
}

/** Entities::DeployToken */
export const toDeployToken = (t: DeployTokenRow) => ({
  id: t.id,
  name: t.name,
  username: deployTokenUsername(t),
  expires_at: t.expiresAt ? t.expiresAt.toISOString() : null,
  scopes: t.scopes,
});
