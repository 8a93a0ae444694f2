// Award emoji (GitLab's lib/api/award_emoji.rb): list, get, award and remove, on issues and merge requests (by iid),
// project snippets (by id), and notes on them:
//   /projects/:id/issues/:issue_iid/award_emoji              /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji
//   /projects/:id/snippets/:snippet_id/award_emoji           /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji
//   /projects/:id/merge_requests/:merge_request_iid/award_emoji
//   /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji
//   /groups/:id/epics/:epic_iid/award_emoji                   /groups/:id/epics/:epic_iid/notes/:note_id/award_emoji
// each with GET (list), POST (`name`), GET .../:award_id and DELETE .../:award_id.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, pathId, schema, type Output, type Schema } from '../lib/validate.ts';
import { CreateAwardInput, ListAwardsInput, toAwardEmoji } from './schemas.ts';
import * as awards from './service.ts';
import type { AwardableRef } from './service.ts';

export const awardEmojiRoutes = new Hono<AppEnv>();

type Project = Output<typeof projectRef>;

/**
 * One awardable's routes: its path, the path parameters' schema (a lib/validate.ts builder, built on the first
 * request), and how they name the awardable.
 */
function mount<S extends z.ZodMiniObject>(base: string, shape: Schema<S>, toRef: (p: z.output<S>) => AwardableRef) {
  const AwardPath = schema(() => z.extend(shape(), { award_id: pathId() }));

  awardEmojiRoutes.get(base, path(shape), params(ListAwardsInput), async (c) => {
    const { ctx } = c.var;
    const list = await awards.listAwards({ ctx, input: { awardable: toRef(c.req.valid('param') as z.output<S>) } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map((r) => toAwardEmoji(r.award, r.user, ctx.config)));
  });

  awardEmojiRoutes.post(base, path(shape), params(CreateAwardInput), async (c) => {
    const { ctx } = c.var;
    const view = await awards.createAward({ ctx, input: { awardable: toRef(c.req.valid('param') as z.output<S>), params: c.req.valid('query') } });
    return c.json(toAwardEmoji(view.award, view.user, ctx.config), 201);
  });

  awardEmojiRoutes.get(`${base}/:award_id`, path(AwardPath), async (c) => {
    const { ctx } = c.var;
    const p = c.req.valid('param') as z.output<S> & { award_id: number | null };
    const view = await awards.getAward({ ctx, input: { awardable: toRef(p), awardId: p.award_id } });
    return c.json(toAwardEmoji(view.award, view.user, ctx.config));
  });

  awardEmojiRoutes.delete(`${base}/:award_id`, path(AwardPath), async (c) => {
    const p = c.req.valid('param') as z.output<S> & { award_id: number | null };
    await awards.deleteAward({ ctx: c.var.ctx, input: { awardable: toRef(p), awardId: p.award_id } });
    return c.body(null, 204);
  });
}

const IssuePath = schema(() => z.object({ id: projectRef(), issue_iid: pathId() }));
const IssueNotePath = schema(() => z.object({ id: projectRef(), issue_iid: pathId(), note_id: pathId() }));
const MergeRequestPath = schema(() => z.object({ id: projectRef(), merge_request_iid: pathId() }));
const MergeRequestNotePath = schema(() => z.object({ id: projectRef(), merge_request_iid: pathId(), note_id: pathId() }));
const SnippetPath = schema(() => z.object({ id: projectRef(), snippet_id: pathId() }));
const SnippetNotePath = schema(() => z.object({ id: projectRef(), snippet_id: pathId(), note_id: pathId() }));

const issue = (project: Project, iid: number | null) => ({ kind: 'issues' as const, project, id: iid });
const snippet = (project: Project, id: number | null) => ({ kind: 'snippets' as const, project, id });
const mergeRequest = (project: Project, iid: number | null) => ({ kind: 'merge_requests' as const, project, id: iid });

mount('/projects/:id/issues/:issue_iid/award_emoji', IssuePath, (p) => ({ kind: 'issue', project: p.id, iid: p.issue_iid }));
mount('/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', IssueNotePath, (p) => ({
  kind: 'note',
  noteable: issue(p.id, p.issue_iid),
  noteId: p.note_id,
}));
mount('/projects/:id/snippets/:snippet_id/award_emoji', SnippetPath, (p) => ({ kind: 'snippet', project: p.id, id: p.snippet_id }));
mount('/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji', SnippetNotePath, (p) => ({
  kind: 'note',
  noteable: snippet(p.id, p.snippet_id),
  noteId: p.note_id,
}));
mount('/projects/:id/merge_requests/:merge_request_iid/award_emoji', MergeRequestPath, (p) => ({
  kind: 'merge_request',
  project: p.id,
  iid: p.merge_request_iid,
}));
mount('/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', MergeRequestNotePath, (p) => ({
  kind: 'note',
  noteable: mergeRequest(p.id, p.merge_request_iid),
  noteId: p.note_id,
}));

// Group epics (13.6 EE, Premium): by iid here (EE's award emoji helpers), and the notes on them.
const EpicPath = schema(() => z.object({ id: groupRef(), epic_iid: pathId() }));
const EpicNotePath = schema(() => z.object({ id: groupRef(), epic_iid: pathId(), note_id: pathId() }));
mount('/groups/:id/epics/:epic_iid/award_emoji', EpicPath, (p) => ({ kind: 'epic', group: p.id, iid: p.epic_iid }));
mount('/groups/:id/epics/:epic_iid/notes/:note_id/award_emoji', EpicNotePath, (p) => ({ kind: 'epic_note', group: p.id, iid: p.epic_iid, noteId: p.note_id }));
