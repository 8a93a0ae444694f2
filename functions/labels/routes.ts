// Project and group labels: GET/POST /{projects,groups}/:id/labels, GET/PUT/DELETE .../labels/:label_id (id or title),
// GitLab 13.x's PUT/DELETE .../labels naming the label in the body, and POST .../labels/:label_id/{subscribe,unsubscribe}.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import {
  CreateLabelInput,
  DeleteGroupLabelByBodyInput,
  DeleteProjectLabelByBodyInput,
  GetLabelInput,
  LabelPath,
  ListLabelsInput,
  toGroupLabel,
  toProjectLabel,
  UpdateGroupLabelByBodyInput,
  UpdateGroupLabelInput,
  UpdateProjectLabelByBodyInput,
  UpdateProjectLabelInput,
} from './schemas.ts';
import * as labels from './service.ts';

export const labelRoutes = new Hono<AppEnv>();

const SOURCES = [
  {
    kind: 'project',
    prefix: '/projects',
    ref: projectRef,
    entity: toProjectLabel,
    Update: UpdateProjectLabelInput,
    UpdateByBody: UpdateProjectLabelByBodyInput,
    DeleteByBody: DeleteProjectLabelByBodyInput,
  },
  {
    kind: 'group',
    prefix: '/groups',
    ref: groupRef,
    entity: toGroupLabel,
    Update: UpdateGroupLabelInput,
    UpdateByBody: UpdateGroupLabelByBodyInput,
    DeleteByBody: DeleteGroupLabelByBodyInput,
  },
] as const;

/** The label a collection-form request names: GitLab's `params[:label_id] || params[:name]`, an id or a title alike. */
const namedLabel = (input: { label_id?: number | undefined; name?: string | undefined }) => String(input.label_id ?? input.name);

for (const { kind, prefix, ref, entity, Update, UpdateByBody, DeleteByBody } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  const ItemPath = schema(() => z.object({ id: ref(), ...LabelPath() }));
  const base = `${prefix}/:id/labels`;

  labelRoutes.get(base, authenticated, path(SourcePath), params(ListLabelsInput), async (c) => {
    const input = c.req.valid('query');
    const list = await labels.listLabels({
      ctx: c.var.ctx,
      input: { kind, ref: c.req.valid('param').id, withCounts: input.with_counts, includeAncestorGroups: input.include_ancestor_groups, search: input.search },
    });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    return c.json(rows.map((r) => entity(r)));
  });

  labelRoutes.get(`${base}/:label_id`, authenticated, path(ItemPath), params(GetLabelInput), async (c) => {
    const { id, label_id } = c.req.valid('param');
    const label = await labels.getLabel({
      ctx: c.var.ctx,
      input: { kind, ref: id, labelRef: label_id, includeAncestorGroups: c.req.valid('query').include_ancestor_groups },
    });
    return c.json(entity(label));
  });

  for (const [action, subscribed] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    labelRoutes.post(`${base}/:label_id/${action}`, authenticated, path(ItemPath), async (c) => {
      const { id, label_id } = c.req.valid('param');
      const label = await labels.setLabelSubscribed({ ctx: c.var.ctx, input: { kind, ref: id, labelRef: label_id, subscribed } });
      return c.json(entity(label), 201);
    });
  }

  labelRoutes.post(base, authenticated, path(SourcePath), params(CreateLabelInput), async (c) => {
    const label = await labels.createLabel({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(entity(label), 201);
  });

  labelRoutes.put(`${base}/:label_id`, authenticated, path(ItemPath), params(Update), async (c) => {
    const { id, label_id } = c.req.valid('param');
    const label = await labels.updateLabel({ ctx: c.var.ctx, input: { kind, ref: id, labelRef: label_id, ...c.req.valid('query') } });
    return c.json(entity(label));
  });

  labelRoutes.delete(`${base}/:label_id`, authenticated, path(ItemPath), async (c) => {
    const { id, label_id } = c.req.valid('param');
    await labels.deleteLabel({ ctx: c.var.ctx, input: { kind, ref: id, labelRef: label_id } });
    return c.body(null, 204);
  });

  labelRoutes.put(base, authenticated, path(SourcePath), params(UpdateByBody), async (c) => {
    const { label_id, name, ...changes } = c.req.valid('query');
    const label = await labels.updateLabel({
      ctx: c.var.ctx,
      input: { kind, ref: c.req.valid('param').id, labelRef: namedLabel({ label_id, name }), ...changes },
    });
    return c.json(entity(label));
  });

  labelRoutes.delete(base, authenticated, path(SourcePath), params<ReturnType<typeof DeleteByBody>>(DeleteByBody), async (c) => {
    await labels.deleteLabel({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id, labelRef: namedLabel(c.req.valid('query')) } });
    return c.body(null, 204);
  });
}
