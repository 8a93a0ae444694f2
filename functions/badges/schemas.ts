// Badge inputs and GitLab 13.6's Entities::BasicBadgeDetails / BadgeDetails.
import type { BadgeRow } from '../../db/schema/index.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { schema, str } from '../lib/validate.ts';
import { renderUrl, type RenderContext } from './render.ts';

const url = () => str(2048);

export const ListBadgesInput = schema(() => z.object({ ...paginationParams(), name: z.optional(str()) }));
export const RenderBadgeInput = schema(() => z.object({ link_url: url(), image_url: url() }));
export const CreateBadgeInput = schema(() => z.object({ link_url: url(), image_url: url(), name: z.optional(str()) }));
export const UpdateBadgeInput = schema(() => z.object({ link_url: z.optional(url()), image_url: z.optional(url()), name: z.optional(str()) }));

/** Entities::BasicBadgeDetails (what /badges/render answers) */
export const toBasicBadge = (b: Pick<BadgeRow, 'name' | 'linkUrl' | 'imageUrl'>, project: RenderContext | null) => ({
  name: b.name,
  link_url: b.linkUrl,
  image_url: b.imageUrl,
  rendered_link_url: renderUrl(b.linkUrl, project),
  rendered_image_url: renderUrl(b.imageUrl, project),
});

/** Entities::BadgeDetails */
export const toBadge = (b: BadgeRow, project: RenderContext | null) => ({
  ...toBasicBadge(b, project),
  id: b.id,
  kind: b.projectId !== null ? 'project' : 'group',
});
