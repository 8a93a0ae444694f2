// The Discussions API (GitLab 13.6 lib/api/discussions.rb) for issues and merge requests (by iid), project
// snippets (by id) and commits (`repository/commits/:sha`, any revision):
//   GET/POST   /projects/:id/<noteables>/:noteable_id/discussions
//   GET        /projects/:id/<noteables>/:noteable_id/discussions/:discussion_id
//   PUT        /projects/:id/merge_requests/:noteable_id/discussions/:discussion_id            (resolved; MRs only)
//   GET/POST   /projects/:id/<noteables>/:noteable_id/discussions/:discussion_id/notes
//   GET/PUT/DELETE .../discussions/:discussion_id/notes/:note_id
// and group epics (13.6 EE, Premium; `:noteable_id` is the epic's id, as the notes API's):
//   /groups/:id/epics/:noteable_id/discussions (the same endpoints, no resolving)
// As in GitLab, the note endpoints find the note on the noteable whatever discussion the path names.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, pathId, schema, type Output } from '../lib/validate.ts';
import { toDiscussion, toNoteView } from '../notes/schemas.ts';
import * as notes from '../notes/service.ts';
import { updateNote } from '../notes/update.ts';
import {
  CreateDiscussionInput,
  CreatePositionedDiscussionInput,
  ListDiscussionsInput,
  ReplyInput,
  ResolveDiscussionInput,
  UpdateDiscussionNoteInput,
} from './schemas.ts';
import * as discussions from './service.ts';

export const discussionRoutes = new Hono<AppEnv>();

type Kind = 'issues' | 'snippets' | 'merge_requests' | 'commits' | 'epics';
type NoteableParams = { id: Output<typeof projectRef>; noteable_id: number | string | null };

// `noteable_id` is an Integer (an iid or id), a commit's a String.
const noteableId = (kind: Kind) => (kind === 'commits' ? z.string() : pathId());
// Epics live in groups: `:id` is a group.
const parentRef = (kind: Kind) => (kind === 'epics' ? groupRef() : projectRef());
const NoteablePath = (kind: Kind) => schema(() => z.object({ id: parentRef(kind), noteable_id: noteableId(kind) }));
const DiscussionPath = (kind: Kind) => schema(() => z.object({ id: parentRef(kind), noteable_id: noteableId(kind), discussion_id: z.string() }));
const NotePath = (kind: Kind) => schema(() => z.object({ id: parentRef(kind), noteable_id: noteableId(kind), discussion_id: z.string(), note_id: pathId() }));

const baseOf = (kind: Kind) =>
  kind === 'commits'
    ? '/projects/:id/repository/commits/:noteable_id/discussions'
    : kind === 'epics'
      ? '/groups/:id/epics/:noteable_id/discussions'
      : `/projects/:id/${kind}/:noteable_id/discussions`;

for (const kind of ['issues', 'snippets', 'merge_requests', 'commits', 'epics'] as const) {
  const base = baseOf(kind);
  const ref = (p: NoteableParams): notes.NoteableRef =>
    kind === 'commits'
      ? { kind, project: p.id, sha: String(p.noteable_id) }
      : kind === 'epics'
        ? { kind, group: p.id, id: p.noteable_id as number | null }
        : { kind, project: p.id, id: p.noteable_id as number | null };

  discussionRoutes.get(base, path(NoteablePath(kind)), params(ListDiscussionsInput), async (c) => {
    const { ctx } = c.var;
    const list = await discussions.listDiscussions({ ctx, input: { noteable: ref(c.req.valid('param')) } });
    const page = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(page.map((d) => toDiscussion(d.id, d.notes, list.noteable.iid, ctx.config)));
  });

  // Issues and snippets declare no `position`: their input is the positioned one's without it.
  const CreateInput: typeof CreatePositionedDiscussionInput =
    kind === 'merge_requests' || kind === 'commits'
      ? CreatePositionedDiscussionInput
      : (CreateDiscussionInput as unknown as typeof CreatePositionedDiscussionInput);
  discussionRoutes.post(base, path(NoteablePath(kind)), params(CreateInput), async (c) => {
    const { ctx } = c.var;
    const { noteable, discussion } = await discussions.createDiscussion({ ctx, input: { noteable: ref(c.req.valid('param')), params: c.req.valid('query') } });
    return c.json(toDiscussion(discussion.id, discussion.notes, noteable.iid, ctx.config), 201);
  });

  discussionRoutes.get(`${base}/:discussion_id`, path(DiscussionPath(kind)), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, discussion } = await discussions.getDiscussion({ ctx, input: { noteable: ref(p), discussionId: p.discussion_id } });
    return c.json(toDiscussion(discussion.id, discussion.notes, noteable.iid, ctx.config));
  });

  if (kind === 'merge_requests') {
    // Noteable::RESOLVABLE_TYPES: merge requests only.
    discussionRoutes.put(`${base}/:discussion_id`, path(DiscussionPath(kind)), params(ResolveDiscussionInput), async (c) => {
      const { ctx } = c.var;
      const p = c.req.valid('param');
      const input = { noteable: ref(p), discussionId: p.discussion_id, resolved: c.req.valid('query').resolved };
      const { noteable, discussion } = await discussions.resolveDiscussion({ ctx, input });
      return c.json(toDiscussion(discussion.id, discussion.notes, noteable.iid, ctx.config));
    });
  }

  discussionRoutes.get(`${base}/:discussion_id/notes`, path(DiscussionPath(kind)), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, discussion } = await discussions.getDiscussionNotes({ ctx, input: { noteable: ref(p), discussionId: p.discussion_id } });
    return c.json(discussion.notes.map((v) => toNoteView(v, noteable.iid, ctx.config)));
  });

  discussionRoutes.post(`${base}/:discussion_id/notes`, path(DiscussionPath(kind)), params(ReplyInput), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, view } = await discussions.replyToDiscussion({
      ctx,
      input: { noteable: ref(p), discussionId: p.discussion_id, params: c.req.valid('query') },
    });
    return c.json(toNoteView(view, noteable.iid, ctx.config), 201);
  });

  discussionRoutes.get(`${base}/:discussion_id/notes/:note_id`, path(NotePath(kind)), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const { noteable, view } = await notes.getNote({ ctx, input: { noteable: ref(p), noteId: p.note_id } });
    return c.json(toNoteView(view, noteable.iid, ctx.config));
  });

  discussionRoutes.put(`${base}/:discussion_id/notes/:note_id`, path(NotePath(kind)), params(UpdateDiscussionNoteInput), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param');
    const body = c.req.valid('query');
    const { noteable, view } =
      body.resolved === undefined
        ? await updateNote({ ctx, input: { noteable: ref(p), noteId: p.note_id, params: { body: body.body } } })
        : await discussions.resolveNote({ ctx, input: { noteable: ref(p), noteId: p.note_id, resolved: body.resolved } });
    return c.json(toNoteView(view, noteable.iid, ctx.config));
  });

  discussionRoutes.delete(`${base}/:discussion_id/notes/:note_id`, path(NotePath(kind)), async (c) => {
    const p = c.req.valid('param');
    await notes.deleteNote({ ctx: c.var.ctx, input: { noteable: ref(p), noteId: p.note_id } });
    return c.body(null, 204);
  });
}
