import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, pathId, schema, type Output } from '../lib/validate.ts';
import { CreateNoteInput, ListNotesInput, toNoteView, UpdateNoteInput } from './schemas.ts';
import { createNote } from './create.ts';
import * as notes from './service.ts';
import { updateNote } from './update.ts';

export const noteRoutes = new Hono<AppEnv>();

const NoteablePath = schema(() => z.object({ id: projectRef(), noteable_id: pathId() }));
const NotePath = schema(() => z.object({ id: projectRef(), noteable_id: pathId(), note_id: pathId() }));
const EpicPath = schema(() => z.object({ id: groupRef(), noteable_id: pathId() }));
const EpicNotePath = schema(() => z.object({ id: groupRef(), noteable_id: pathId(), note_id: pathId() }));

type Params = { id: Output<typeof projectRef>; noteable_id: number | null };

/** The five endpoints of one noteable kind: its base path, the path schemas, and how the parameters name the noteable. */
function mount(base: string, paths: { noteable: typeof NoteablePath; note: typeof NotePath }, ref: (p: Params) => notes.NoteableRef) {
  noteRoutes.get(base, path(paths.noteable), params(ListNotesInput), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query');
    const list = await notes.listNotes({ ctx, input: { noteable: ref(c.req.valid('param')), params: input } });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    return c.json(rows.map((r) => toNoteView(r, list.noteable.iid, ctx.config)));
  });

  noteRoutes.post(base, path(paths.noteable), params(CreateNoteInput), async (c) => {
    const { ctx } = c.var;
    const params = c.req.valid('query');
    // Who the body mentions is read with the noteable: the create costs auth, that read, and one batch.
    const found = await notes.findNoteable(ctx, ref(c.req.valid('param')), { mentionsIn: params.body });
    const { noteable, view } = await createNote({ ctx, input: { noteable: found, params } });
    return c.json(toNoteView(view, noteable.iid, ctx.config), 201);
  });

  noteRoutes.get(`${base}/:note_id`, path(paths.note), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, view } = await notes.getNote({ ctx, input: { noteable: ref(p), noteId: p.note_id } });
    return c.json(toNoteView(view, noteable.iid, ctx.config));
  });

  noteRoutes.put(`${base}/:note_id`, path(paths.note), params(UpdateNoteInput), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, view } = await updateNote({ ctx, input: { noteable: ref(p), noteId: p.note_id, params: c.req.valid('query') } });
    return c.json(toNoteView(view, noteable.iid, ctx.config));
  });

  noteRoutes.delete(`${base}/:note_id`, path(paths.note), async (c) => {
    const p = c.req.valid('param');
    await notes.deleteNote({ ctx: c.var.ctx, input: { noteable: ref(p), noteId: p.note_id } });
    return c.body(null, 204);
  });
}

// The same five endpoints for issues and merge requests (by iid) and project snippets (by id), as GitLab's noteable loop.
for (const kind of ['issues', 'snippets', 'merge_requests'] as const) {
  mount(`/projects/:id/${kind}/:noteable_id/notes`, { noteable: NoteablePath, note: NotePath }, (p) => ({ kind, project: p.id, id: p.noteable_id }));
}

// Group epics (13.6 EE, Premium): `:noteable_id` is the epic's id, not its iid (EE's notes helpers: EpicsFinder#find).
mount('/groups/:id/epics/:noteable_id/notes', { noteable: EpicPath, note: EpicNotePath }, (p) => ({ kind: 'epics', group: p.id, id: p.noteable_id }));
