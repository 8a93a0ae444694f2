// Badge verbs (GitLab 13.6's lib/api/badges.rb with Badges::CreateService/UpdateService): anyone who reads the
// project or group lists and reads its badges; its administrators (admin_project: maintainers; admin_group:
// owners) render, create, change and delete them. A project's list includes its groups' badges, rendered for it.
import * as q from '../../db/queries/badges.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbiddenMessage, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { badgeUrlErrors, type RenderContext } from './render.ts';

type Kind = 'project' | 'group';
type Verb<I> = { ctx: RequestContext; input: { kind: Kind; ref: Ref | null } & I };

/** The readable source with whose badges it shows, what renders them, and whether the actor administers it. */
async function badgeSource(ctx: RequestContext, kind: Kind, ref: Ref | null) {
  if (kind === 'project') {
    const v = await findProject(ctx, ref);
    const ns = v.namespace;
    const owner: q.BadgeOwner = { kind, id: v.project.id, groupIds: ns.kind === 'group' ? ns.traversalIds : [] };
    const render = async (): Promise<RenderContext> => ({
      projectPath: v.project.pathWithNamespace,
      projectId: v.project.id,
      defaultBranch: v.repository.empty ? null : v.repository.defaultBranch,
      commitSha: await q.defaultBranchCommit(ctx.db, v.project.id),
    });
    return { owner, render, assertAdmin: () => assertCan(ctx.actor, 'project:update', projectFacts(v)) };
  }
  const v = await findGroup(ctx, ref);
  const owner: q.BadgeOwner = { kind, id: v.namespace.id };
  return { owner, render: async () => null, assertAdmin: () => assertCan(ctx.actor, 'group:update', groupFacts(v)) };
}

function validateUrls(input: { link_url?: string | undefined; image_url?: string | undefined }) {
  const errors: Record<string, string[]> = {};
  for (const key of ['link_url', 'image_url'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    const found = value === '' ? ["can't be blank", ...badgeUrlErrors(value)] : badgeUrlErrors(value);
    if (found.length) errors[key] = found;
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export async function listBadges({ ctx, input }: Verb<{ name?: string | undefined }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  return {
    render: source.render,
    fetch: (limit: number, offset: number) => q.listBadges(ctx.db, source.owner, input.name, limit, offset),
    count: (limit: number) => q.countBadges(ctx.db, source.owner, input.name, limit),
  };
}

export async function getBadge({ ctx, input }: Verb<{ badgeId: number | null }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  const badge = input.badgeId === null ? undefined : await q.findBadge(ctx.db, source.owner, input.badgeId);
  if (!badge) throw recordNotFound();
  return { badge, project: await source.render() };
}

export async function renderBadge({ ctx, input }: Verb<{ link_url: string; image_url: string }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  source.assertAdmin();
  return { badge: { name: null, linkUrl: input.link_url, imageUrl: input.image_url }, project: await source.render() };
}

export async function createBadge({ ctx, input }: Verb<{ link_url: string; image_url: string; name?: string | undefined }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  source.assertAdmin();
  validateUrls(input);
  const badge = await q.insertBadge(ctx.db, {
    projectId: source.owner.kind === 'project' ? source.owner.id : null,
    groupId: source.owner.kind === 'group' ? source.owner.id : null,
    name: input.name ?? null,
    linkUrl: input.link_url,
    imageUrl: input.image_url,
  });
  return { badge, project: await source.render() };
}

/** A project's own badge (its group's are changed through the group). */
async function ownBadge(ctx: RequestContext, source: Awaited<ReturnType<typeof badgeSource>>, badgeId: number | null, verb: 'update' | 'delete') {
  const badge = badgeId === null ? undefined : await q.findBadge(ctx.db, source.owner, badgeId);
  if (!badge) throw recordNotFound();
  if (source.owner.kind === 'project' && badge.projectId === null) {
    throw forbiddenMessage(`To ${verb} a Group badge please use the Group Badges API`);
  }
  return badge;
}

export async function updateBadge({
  ctx,
  input,
}: Verb<{ badgeId: number | null; link_url?: string | undefined; image_url?: string | undefined; name?: string | undefined }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  source.assertAdmin();
  const badge = await ownBadge(ctx, source, input.badgeId, 'update');
  validateUrls(input);
  const updated = await q.updateBadge(ctx.db, badge.id, {
    ...(input.link_url !== undefined ? { linkUrl: input.link_url } : {}),
    ...(input.image_url !== undefined ? { imageUrl: input.image_url } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
  });
  if (!updated) throw recordNotFound();
  return { badge: updated, project: await source.render() };
}

export async function deleteBadge({ ctx, input }: Verb<{ badgeId: number | null }>) {
  const source = await badgeSource(ctx, input.kind, input.ref);
  source.assertAdmin();
  const badge = await ownBadge(ctx, source, input.badgeId, 'delete');
  await q.deleteBadge(ctx.db, badge.id);
}
