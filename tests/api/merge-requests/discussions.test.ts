// The Discussions API on merge requests (and issues and project snippets) through HTTP, as GitLab 13.6's
// lib/api/discussions.rb answers: Entities::Discussion, discussions started with and without a diff position (added,
// removed, context lines, a line outside the diff, SHAs of no version, image positions, positions on an older
// version after a push), replies, resolving notes and whole discussions (and who may not), the MR's
// blocking_discussions_resolved and user_notes_count, and the authorization suite.
import { createHash } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notes } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { basic, commit, ISO, lines, mrProject, mrs, openMergeRequest, tip } from './support.ts';

const NOTE_KEYS = ['id', 'type', 'body', 'attachment', 'author', 'created_at', 'updated_at', 'system', 'noteable_id', 'noteable_type'];
const RESOLVABLE_KEYS = [...NOTE_KEYS, 'resolvable', 'resolved', 'resolved_by', 'resolved_at', 'confidential', 'noteable_iid', 'commands_changes'];
const DIFF_NOTE_KEYS = [
  ...NOTE_KEYS,
  'commit_id',
  'position',
  'resolvable',
  'resolved',
  'resolved_by',
  'resolved_at',
  'confidential',
  'noteable_iid',
  'commands_changes',
];
const PLAIN_KEYS = [...NOTE_KEYS, 'resolvable', 'confidential', 'noteable_iid', 'commands_changes'];

const LINE_CODE_ERROR = { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' };

type DiffRefs = { base_sha: string; start_sha: string; head_sha: string };

async function setup() {
  const fx = await mrProject('mr-discussions');
  const mr = await openMergeRequest(fx);
  const stranger = await createUser();
  const url = `${mrs(fx)}/${mr.iid}/discussions`;
  return { ...fx, mr, stranger, url };
}

const mrNoteCount = async (mrId: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(notes)
      .where(and(eq(notes.noteableType, 'MergeRequest'), eq(notes.noteableId, mrId)))
  )[0]!.n;

const storedNote = async (id: number) => (await testDb().db.select().from(notes).where(eq(notes.id, id)))[0]!;

const pathHash = createHash('sha1').update('list.txt').digest('hex');

const textPosition = (refs: DiffRefs, lines: { old_line?: number | null; new_line?: number | null }) => ({
  ...refs,
  position_type: 'text',
  old_path: 'list.txt',
  new_path: 'list.txt',
  ...lines,
});

/** Entities::Note's `position` for a text position (keys in the formatter's order). */
const textPositionJson = (refs: DiffRefs, oldLine: number | null, newLine: number | null) => ({
  base_sha: refs.base_sha,
  start_sha: refs.start_sha,
  head_sha: refs.head_sha,
  old_path: 'list.txt',
  new_path: 'list.txt',
  position_type: 'text',
  old_line: oldLine,
  new_line: newLine,
  line_range: null,
});

describe('merge request discussions: start, list, read, reply', () => {
  it('a discussion is a resolvable DiscussionNote; a plain note is an individual discussion; replies join them', async () => {
    const fx = await setup();
    const started = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'Why this line?' } });
    expect(started.status, started.text).toBe(201);
    expect(Object.keys(started.body)).toEqual(['id', 'individual_note', 'notes']);
    const first = started.body.notes[0];
    expect(Object.keys(first)).toEqual(RESOLVABLE_KEYS);
    expect(started.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: false,
      notes: [
        {
          id: expect.any(Number),
          type: 'DiscussionNote',
          body: 'Why this line?',
          attachment: null,
          author: basic(fx.reporter.user),
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
          system: false,
          noteable_id: fx.mr.id,
          noteable_type: 'MergeRequest',
          resolvable: true,
          resolved: false,
          resolved_by: null,
          resolved_at: null,
          confidential: false,
          noteable_iid: fx.mr.iid,
          commands_changes: {},
        },
      ],
    });

    // A plain note (POST .../notes) is a discussion of its own, not resolvable.
    const plain = await api.post(`${mrs(fx)}/${fx.mr.iid}/notes`, { token: fx.developer.token, body: { body: 'Plain comment' } });
    expect(plain.status).toBe(201);

    const list = await api.get(fx.url, { token: fx.owner.token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('2');
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toEqual(started.body);
    expect(list.body[1]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}$/), individual_note: true, notes: [plain.body] });
    expect(Object.keys(list.body[1].notes[0])).toEqual(PLAIN_KEYS);

    // Pagination counts discussions.
    const page = await api.get(fx.url, { token: fx.owner.token, query: { per_page: 1, page: 2 } });
    expect(page.body).toEqual([list.body[1]]);
    expect(page.headers.get('x-total')).toBe('2');
    expect(page.headers.get('x-total-pages')).toBe('2');

    // A reply.
    const reply = await api.post(`${fx.url}/${started.body.id}/notes`, { token: fx.developer.token, body: { body: 'Because.' } });
    expect(reply.status, reply.text).toBe(201);
    expect(Object.keys(reply.body)).toEqual(RESOLVABLE_KEYS);
    expect(reply.body).toEqual({
      ...first,
      id: expect.any(Number),
      body: 'Because.',
      author: basic(fx.developer.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });

    // The discussion's notes alone.
    const notesOf = await api.get(`${fx.url}/${started.body.id}/notes`, { token: fx.owner.token });
    expect(notesOf.status).toBe(200);
    expect(notesOf.body).toEqual([first, reply.body]);

    // Replying to the individual note turns it into a DiscussionNote.
    const plainDiscussion = list.body[1].id;
    const second = await api.post(`${fx.url}/${plainDiscussion}/notes`, { token: fx.owner.token, body: { body: 'Agreed' } });
    expect(second.status).toBe(201);
    const one = await api.get(`${fx.url}/${plainDiscussion}`, { token: fx.reporter.token });
    expect(one.status).toBe(200);
    expect(one.body.individual_note).toBe(false);
    expect(one.body.notes.map((n: { type: string; resolvable: boolean; body: string }) => [n.type, n.resolvable, n.body])).toEqual([
      ['DiscussionNote', true, 'Plain comment'],
      ['DiscussionNote', true, 'Agreed'],
    ]);

    // One note of a discussion, read, edited and deleted through the discussion's paths.
    const noteUrl = `${fx.url}/${started.body.id}/notes/${reply.body.id}`;
    expect((await api.get(noteUrl, { token: fx.owner.token })).body).toEqual(reply.body);
    const edited = await api.put(noteUrl, { token: fx.developer.token, body: { body: 'Because of the spec.' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual({ ...reply.body, body: 'Because of the spec.', updated_at: expect.stringMatching(ISO) });
    expect((await api.put(noteUrl, { token: fx.reporter.token, body: { body: 'x' } })).status).toBe(403);

    const mr = await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token });
    expect(mr.body.user_notes_count).toBe(4);
    expect((await api.delete(noteUrl, { token: fx.developer.token })).status).toBe(204);
    expect((await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token })).body.user_notes_count).toBe(3);
  });

  it('lists a page of discussions in a constant number of queries', async () => {
    const fx = await setup();
    await api.post(fx.url, { token: fx.owner.token, body: { body: 'one' } });
    const few = await api.get(fx.url, { token: fx.owner.token });
    for (let i = 0; i < 4; i++) {
      const d = await api.post(fx.url, { token: fx.owner.token, body: { body: `d${i}` } });
      await api.post(`${fx.url}/${d.body.id}/notes`, { token: fx.developer.token, body: { body: 'r' } });
    }
    const many = await api.get(fx.url, { token: fx.owner.token });
    expect(many.body).toHaveLength(5);
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(few));
  });

  it('404 Discussion Not Found for an unknown id; 400 for a missing body; exactly one of body and resolved', async () => {
    const fx = await setup();
    const missing = await api.get(`${fx.url}/${'a'.repeat(40)}`, { token: fx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Discussion Not Found' });
    const noNotes = await api.get(`${fx.url}/${'a'.repeat(40)}/notes`, { token: fx.owner.token });
    expect(noNotes.status).toBe(404);
    expect(noNotes.body).toEqual({ message: '404 Notes Not Found' });
    const reply = await api.post(`${fx.url}/${'a'.repeat(40)}/notes`, { token: fx.owner.token, body: { body: 'hi' } });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ message: '404 Discussion Not Found' });
    const resolve = await api.put(`${fx.url}/${'a'.repeat(40)}`, { token: fx.owner.token, body: { resolved: true } });
    expect(resolve.status).toBe(404);
    expect(resolve.body).toEqual({ message: '404 Discussion Not Found' });
    const noBody = await api.post(fx.url, { token: fx.owner.token, body: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.body).toEqual({ error: 'body is missing' });
    const started = await api.post(fx.url, { token: fx.owner.token, body: { body: 'x' } });
    const noteUrl = `${fx.url}/${started.body.id}/notes/${started.body.notes[0].id}`;
    const both = await api.put(noteUrl, { token: fx.owner.token, body: { body: 'y', resolved: true } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'body, resolved are mutually exclusive' });
    const none = await api.put(noteUrl, { token: fx.owner.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'body, resolved are missing, exactly one parameter must be provided' });
    expect(await mrNoteCount(fx.mr.id)).toBe(1);
  });
});

describe('merge request diff notes (POST .../discussions with position)', () => {
  it('places DiffNotes on an added, a removed and a context line of the latest version', async () => {
    const fx = await setup();
    const refs = fx.mr.diff_refs;
    const cases: Array<[string, number | null, number | null, string]> = [
      ['added', null, 3, `${pathHash}_4_3`],
      ['removed', 3, null, `${pathHash}_3_3`],
      ['context', 2, 2, `${pathHash}_2_2`],
    ];
    for (const [label, oldLine, newLine, lineCode] of cases) {
      const res = await api.post(fx.url, {
        token: fx.developer.token,
        body: { body: `On the ${label} line`, position: textPosition(refs, { old_line: oldLine, new_line: newLine }) },
      });
      expect(res.status, `${label}: ${res.text}`).toBe(201);
      expect(res.body.individual_note).toBe(false);
      const note = res.body.notes[0];
      expect(Object.keys(note)).toEqual(DIFF_NOTE_KEYS);
      expect(note).toEqual({
        id: expect.any(Number),
        type: 'DiffNote',
        body: `On the ${label} line`,
        attachment: null,
        author: basic(fx.developer.user),
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        system: false,
        noteable_id: fx.mr.id,
        noteable_type: 'MergeRequest',
        commit_id: null,
        position: textPositionJson(refs, oldLine, newLine),
        resolvable: true,
        resolved: false,
        resolved_by: null,
        resolved_at: null,
        confidential: false,
        noteable_iid: fx.mr.iid,
        commands_changes: {},
      });
      const row = await storedNote(note.id);
      expect([row.type, row.lineCode]).toEqual(['DiffNote', lineCode]);
    }
    // Form-encoded positions (Rack's nested names) work the same.
    const form = await api.post(fx.url, {
      token: fx.developer.token,
      form: {
        body: 'form',
        'position[base_sha]': refs.base_sha,
        'position[start_sha]': refs.start_sha,
        'position[head_sha]': refs.head_sha,
        'position[position_type]': 'text',
        'position[new_path]': 'list.txt',
        'position[old_path]': 'list.txt',
        'position[new_line]': '3',
      },
    });
    expect(form.status, form.text).toBe(201);
    expect(form.body.notes[0].position).toEqual(textPositionJson(refs, null, 3));
    // The notes listing shows them with their positions too.
    const list = await api.get(`${mrs(fx)}/${fx.mr.iid}/notes`, { token: fx.owner.token, query: { sort: 'asc' } });
    expect(list.body.map((n: { position: unknown }) => n.position)).toEqual([
      textPositionJson(refs, null, 3),
      textPositionJson(refs, 3, null),
      textPositionJson(refs, 2, 2),
      textPositionJson(refs, null, 3),
    ]);
  });

  it('refuses a line outside the diff and SHAs of no version with GitLab 400, storing nothing', async () => {
    const fx = await setup();
    const refs = fx.mr.diff_refs;
    // Line 10 is no added line of the diff.
    const outside = await api.post(fx.url, { token: fx.developer.token, body: { body: 'Nope', position: textPosition(refs, { new_line: 10 }) } });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual(LINE_CODE_ERROR);
    // Another file of no diff.
    const otherFile = await api.post(fx.url, {
      token: fx.developer.token,
      body: { body: 'Nope', position: { ...textPosition(refs, { new_line: 1 }), old_path: 'README.md', new_path: 'README.md' } },
    });
    expect(otherFile.status).toBe(400);
    expect(otherFile.body).toEqual(LINE_CODE_ERROR);
    // SHAs that name no version of the MR.
    const fake = 'f'.repeat(40);
    const noVersion = await api.post(fx.url, {
      token: fx.developer.token,
      body: { body: 'Nope', position: textPosition({ base_sha: fake, start_sha: fake, head_sha: fake }, { new_line: 3 }) },
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body).toEqual(LINE_CODE_ERROR);
    // A blank body and a bad line: the model names both.
    const both = await api.post(fx.url, { token: fx.developer.token, body: { body: ' ', position: textPosition(refs, { new_line: 10 }) } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ message: '400 Bad request - Note {:note=>["can\'t be blank"], :line_code=>["can\'t be blank", "must be a valid line code"]}' });
    // A position missing its required SHAs is Grape's parameter error.
    const incomplete = await api.post(fx.url, { token: fx.developer.token, body: { body: 'Nope', position: { position_type: 'text', new_line: 3 } } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body).toEqual({ error: 'position[base_sha] is missing, position[start_sha] is missing, position[head_sha] is missing' });
    expect(await mrNoteCount(fx.mr.id)).toBe(0);
  });

  it('image positions are saved as given', async () => {
    const fx = await setup();
    const refs = fx.mr.diff_refs;
    const position = { ...refs, position_type: 'image', new_path: 'logo.png', old_path: 'logo.png', width: 100, height: 80, x: 10, y: 20 };
    const res = await api.post(fx.url, { token: fx.developer.token, body: { body: 'This pixel', position } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.notes[0].type).toBe('DiffNote');
    expect(res.body.notes[0].position).toEqual({
      base_sha: refs.base_sha,
      start_sha: refs.start_sha,
      head_sha: refs.head_sha,
      old_path: 'logo.png',
      new_path: 'logo.png',
      position_type: 'image',
      width: 100,
      height: 80,
      x: 10,
      y: 20,
    });
    expect((await storedNote(res.body.notes[0].id)).lineCode).toBeNull();
    // An incomplete image position fails the model.
    const partial = await api.post(fx.url, { token: fx.developer.token, body: { body: 'x', position: { ...position, width: null } } });
    expect(partial.status).toBe(400);
    expect(partial.body).toEqual({ message: '400 Bad request - Note {:position=>["is incomplete"]}' });
  });

  it('after a push makes a new version, a note on the old version keeps its position and old SHAs still place notes', async () => {
    const fx = await setup();
    const oldRefs = fx.mr.diff_refs;
    const before = await api.post(fx.url, { token: fx.developer.token, body: { body: 'Old version', position: textPosition(oldRefs, { new_line: 3 }) } });
    expect(before.status).toBe(201);
    await commit(fx, 'topic', 'Edit line 10', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line three\n').replace('line 10\n', 'line ten\n') },
    ]);
    const mr = await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token });
    const newRefs = mr.body.diff_refs as DiffRefs;
    expect(newRefs.head_sha).not.toBe(oldRefs.head_sha);
    expect((await api.get(`${mrs(fx)}/${fx.mr.iid}/versions`, { token: fx.owner.token })).body).toHaveLength(2);

    const discussion = await api.get(`${fx.url}/${before.body.id}`, { token: fx.owner.token });
    expect(discussion.body).toEqual(before.body);
    expect(discussion.body.notes[0].position).toEqual(textPositionJson(oldRefs, null, 3));

    // Line 10 changed only in the new version.
    const onNew = await api.post(fx.url, { token: fx.developer.token, body: { body: 'New line', position: textPosition(newRefs, { new_line: 10 }) } });
    expect(onNew.status, onNew.text).toBe(201);
    expect((await storedNote(onNew.body.notes[0].id)).lineCode).toBe(`${pathHash}_11_10`);
    const onOld = await api.post(fx.url, { token: fx.developer.token, body: { body: 'Not there', position: textPosition(oldRefs, { new_line: 10 }) } });
    expect(onOld.status).toBe(400);
    expect(onOld.body).toEqual(LINE_CODE_ERROR);
    const stillOld = await api.post(fx.url, { token: fx.developer.token, body: { body: 'Old again', position: textPosition(oldRefs, { old_line: 3 }) } });
    expect(stillOld.status, stillOld.text).toBe(201);
  });
});

describe('resolving merge request discussions', () => {
  it('resolves and unresolves whole discussions; blocking_discussions_resolved flips; who may not is told 403', async () => {
    const fx = await setup();
    const setting = await api.put(`/projects/${fx.project.id}`, { token: fx.owner.token, body: { only_allow_merge_if_all_discussions_are_resolved: true } });
    expect(setting.status, setting.text).toBe(200);
    const mrUrl = `${mrs(fx)}/${fx.mr.iid}`;
    expect((await api.get(mrUrl, { token: fx.owner.token })).body.blocking_discussions_resolved).toBe(true);

    const started = await api.post(fx.url, {
      token: fx.reporter.token,
      body: { body: 'Please fix', position: textPosition(fx.mr.diff_refs, { new_line: 3 }) },
    });
    expect(started.status).toBe(201);
    const reply = await api.post(`${fx.url}/${started.body.id}/notes`, { token: fx.developer.token, body: { body: 'Will do' } });
    expect(reply.status).toBe(201);
    expect((await api.get(mrUrl, { token: fx.owner.token })).body.blocking_discussions_resolved).toBe(false);

    // A reporter who is not the MR's author may not resolve the discussion, even one they started.
    const refused = await api.put(`${fx.url}/${started.body.id}`, { token: fx.reporter.token, body: { resolved: true } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    const missing = await api.put(`${fx.url}/${started.body.id}`, { token: fx.developer.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'resolved is missing' });

    // A developer may.
    const resolved = await api.put(`${fx.url}/${started.body.id}`, { token: fx.developer.token, body: { resolved: true } });
    expect(resolved.status, resolved.text).toBe(200);
    expect(Object.keys(resolved.body)).toEqual(['id', 'individual_note', 'notes']);
    expect(resolved.body.notes).toHaveLength(2);
    for (const n of resolved.body.notes) {
      expect(n).toMatchObject({ resolvable: true, resolved: true, resolved_by: basic(fx.developer.user), resolved_at: expect.stringMatching(ISO) });
    }
    // Resolving a discussion does not touch its notes' updated_at.
    expect(resolved.body.notes[0].updated_at).toBe(started.body.notes[0].updated_at);
    expect((await api.get(mrUrl, { token: fx.owner.token })).body.blocking_discussions_resolved).toBe(true);
    // All threads resolved: the system note.
    const system = await api.get(`${mrs(fx)}/${fx.mr.iid}/notes`, { token: fx.owner.token });
    expect(system.body[0]).toMatchObject({ body: 'resolved all threads', system: true, type: null, resolvable: false, author: basic(fx.developer.user) });

    // The MR's author unresolves it.
    const unresolved = await api.put(`${fx.url}/${started.body.id}`, { token: fx.owner.token, body: { resolved: false } });
    expect(unresolved.status).toBe(200);
    for (const n of unresolved.body.notes) expect(n).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
    expect((await api.get(mrUrl, { token: fx.owner.token })).body.blocking_discussions_resolved).toBe(false);

    // An individual note's discussion is not resolvable: 403.
    const plain = await api.post(`${mrs(fx)}/${fx.mr.iid}/notes`, { token: fx.owner.token, body: { body: 'plain' } });
    const list = await api.get(fx.url, { token: fx.owner.token });
    const plainId = list.body.find((d: { notes: { id: number }[] }) => d.notes[0]!.id === plain.body.id).id;
    expect((await api.put(`${fx.url}/${plainId}`, { token: fx.owner.token, body: { resolved: true } })).status).toBe(403);
  });

  it('resolves one note: its author, the MR author or a developer; not another reporter; plain notes are not resolvable', async () => {
    const fx = await setup();
    const otherReporter = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, otherReporter.user.id, 20);
    const started = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'A question' } });
    const noteUrl = `${fx.url}/${started.body.id}/notes/${started.body.notes[0].id}`;

    const refused = await api.put(noteUrl, { token: otherReporter.token, body: { resolved: true } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });

    const res = await api.put(noteUrl, { token: fx.reporter.token, body: { resolved: true } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(RESOLVABLE_KEYS);
    expect(res.body).toEqual({
      ...started.body.notes[0],
      updated_at: expect.stringMatching(ISO),
      resolved: true,
      resolved_by: basic(fx.reporter.user),
      resolved_at: expect.stringMatching(ISO),
    });
    const back = await api.put(noteUrl, { token: fx.developer.token, body: { resolved: 'false' } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });

    const plain = await api.post(`${mrs(fx)}/${fx.mr.iid}/notes`, { token: fx.owner.token, body: { body: 'plain' } });
    const notResolvable = await api.put(`${fx.url}/${started.body.id}/notes/${plain.body.id}`, { token: fx.owner.token, body: { resolved: true } });
    expect(notResolvable.status).toBe(400);
    expect(notResolvable.body).toEqual({ message: '400 Bad request - Note is not resolvable' });
  });
});

describe('issue and project snippet discussions', () => {
  it('issue discussions: DiscussionNotes that are not resolvable; positions are ignored; no resolve endpoint', async () => {
    const owner = await createUser();
    const project = await api.post('/projects', { token: owner.token, body: { name: `disc-${Date.now()}-${Math.random().toString(36).slice(2, 7)}` } });
    const issue = await createIssue(owner.token, project.body.id);
    const url = `/projects/${project.body.id}/issues/${issue.iid}/discussions`;
    const res = await api.post(url, { token: owner.token, body: { body: 'On the issue', position: { position_type: 'nonsense' } } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body.notes[0])).toEqual(PLAIN_KEYS);
    expect(res.body.notes[0]).toMatchObject({ type: 'DiscussionNote', resolvable: false, noteable_type: 'Issue', noteable_iid: issue.iid });
    const reply = await api.post(`${url}/${res.body.id}/notes`, { token: owner.token, body: { body: 'reply' } });
    expect(reply.status).toBe(201);
    const list = await api.get(url, { token: owner.token });
    expect(list.body).toEqual([{ id: res.body.id, individual_note: false, notes: [res.body.notes[0], reply.body] }]);
    expect((await api.put(`${url}/${res.body.id}`, { token: owner.token, body: { resolved: true } })).status).toBe(404);
  });

  it('snippet discussions: an individual note cannot be replied to', async () => {
    const owner = await createUser();
    const project = await api.post('/projects', { token: owner.token, body: { name: `disc-${Date.now()}-${Math.random().toString(36).slice(2, 7)}` } });
    const snippet = await api.post(`/projects/${project.body.id}/snippets`, {
      token: owner.token,
      body: { title: 's', file_name: 'a.txt', content: 'x', visibility: 'private' },
    });
    expect(snippet.status, snippet.text).toBe(201);
    const base = `/projects/${project.body.id}/snippets/${snippet.body.id}`;
    const started = await api.post(`${base}/discussions`, { token: owner.token, body: { body: 'thread' } });
    expect(started.status).toBe(201);
    expect(started.body.notes[0]).toMatchObject({ type: 'DiscussionNote', noteable_type: 'Snippet', noteable_iid: null, resolvable: false });
    const plain = await api.post(`${base}/notes`, { token: owner.token, body: { body: 'plain' } });
    const list = await api.get(`${base}/discussions`, { token: owner.token });
    const plainId = list.body[1].id;
    expect(list.body[1].notes).toEqual([plain.body]);
    const reply = await api.post(`${base}/discussions/${plainId}/notes`, { token: owner.token, body: { body: 'reply' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: '400 Bad request - Discussion can not be replied to.' });
    expect((await api.post(`${base}/discussions/${started.body.id}/notes`, { token: owner.token, body: { body: 'reply' } })).status).toBe(201);
  });
});

describe('commit discussions', () => {
  it('starts discussions on a commit, with a position on its diff, and lists them; an unknown commit is 404', async () => {
    const fx = await mrProject('commit-discussions');
    const parent = await tip(fx, 'master');
    const url = `/projects/${fx.project.id}/repository/commits/${fx.change.id}/discussions`;
    const res = await api.post(url, { token: fx.reporter.token, body: { body: 'On the commit' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body.notes[0])).toEqual(PLAIN_KEYS);
    expect(res.body.notes[0]).toMatchObject({ type: 'DiscussionNote', noteable_type: 'Commit', noteable_id: null, noteable_iid: null, resolvable: false });
    const refs = { base_sha: parent, start_sha: parent, head_sha: fx.change.id };
    const diff = await api.post(url, { token: fx.reporter.token, body: { body: 'This line', position: textPosition(refs, { new_line: 3 }) } });
    expect(diff.status, diff.text).toBe(201);
    expect(Object.keys(diff.body.notes[0])).toEqual([...NOTE_KEYS, 'position', 'resolvable', 'confidential', 'noteable_iid', 'commands_changes']);
    expect(diff.body.notes[0]).toMatchObject({ type: 'DiffNote', position: textPositionJson(refs, null, 3), resolvable: false });
    expect((await storedNote(diff.body.notes[0].id)).lineCode).toBe(`${pathHash}_4_3`);
    const outside = await api.post(url, { token: fx.reporter.token, body: { body: 'No', position: textPosition(refs, { new_line: 12 }) } });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual(LINE_CODE_ERROR);
    const list = await api.get(url, { token: fx.developer.token });
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([res.body.id, diff.body.id]);
    const reply = await api.post(`${url}/${diff.body.id}/notes`, { token: fx.owner.token, body: { body: 'Indeed' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiscussionNote', noteable_type: 'Commit' });
    const missing = await api.get(`/projects/${fx.project.id}/repository/commits/${'0'.repeat(40)}/discussions`, { token: fx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Commit Not Found' });
  });
});

type AuthFx = Awaited<ReturnType<typeof setup>> & { allowed: string; nonMember: string; insufficientRole: string };

const authFixture = async (): Promise<AuthFx> => {
  const fx = await setup();
  const guest = await createUser();
  await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
  return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: guest.token };
};

describeAuthorization('GET merge request discussions', {
  fixture: authFixture,
  call: (fx, token) => api.get(fx.url, { token }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 MergeRequest Not Found' } },
});

describeAuthorization('POST merge request discussions', {
  fixture: authFixture,
  call: (fx, token) => api.post(fx.url, { token, body: { body: 'hello' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 MergeRequest Not Found' } },
});

describeAuthorization('PUT merge request discussion (resolve)', {
  fixture: async () => {
    const fx = await authFixture();
    const started = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'resolve me' } });
    return { ...fx, allowed: fx.developer.token, otherUser: fx.reporter.token, discussionId: started.body.id as string };
  },
  call: (fx, token) => api.put(`${fx.url}/${fx.discussionId}`, { token, body: { resolved: true } }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 MergeRequest Not Found' } },
  otherUser: { status: 403, body: { message: '403 Forbidden' } },
});
