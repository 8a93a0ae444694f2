// GET/PUT /groups/:id/notification_settings and /projects/:id/notification_settings.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationSettings } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';

const EVENT_KEYS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
  'moved_project',
];

type Kind = 'groups' | 'projects';

/** A private group, and a private project in it, owned by a fresh user. */
async function sources() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  return {
    owner,
    group,
    project,
    id: (kind: Kind) => (kind === 'groups' ? group.id : project.id),
    path: (kind: Kind) => (kind === 'groups' ? group.full_path : project.path_with_namespace),
  };
}

const rowsFor = (userId: number, kind: Kind, id: number) =>
  testDb()
    .db.select()
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), eq(kind === 'groups' ? notificationSettings.namespaceId : notificationSettings.projectId, id)));

for (const kind of ['groups', 'projects'] as Kind[]) {
  const notFound = { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } };
  const url = (ref: number | string) => `/${kind}/${encodeURIComponent(String(ref))}/notification_settings`;

  describe(`GET/PUT /${kind}/:id/notification_settings`, () => {
    it('defaults to global, by id or URL-encoded path; nothing is stored', async () => {
      const s = await sources();
      for (const ref of [s.id(kind), s.path(kind), s.path(kind).toUpperCase()]) {
        const res = await api.get(url(ref), { token: s.owner.token });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ level: 'global' });
      }
      expect(await rowsFor(s.owner.user.id, kind, s.id(kind))).toHaveLength(0);
    });

    it('sets non-custom levels without events; by path too', async () => {
      const s = await sources();
      for (const level of ['watch', 'participating', 'mention', 'disabled', 'global']) {
        const res = await api.put(url(s.path(kind)), { token: s.owner.token, query: { level } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ level });
        expect((await api.get(url(s.id(kind)), { token: s.owner.token })).body).toEqual({ level });
      }
      expect(await rowsFor(s.owner.user.id, kind, s.id(kind))).toHaveLength(1);
    });

    it('custom with new_note and moved_project: the events exactly (unset false, failed/fixed pipeline true)', async () => {
      const s = await sources();
      const res = await api.put(url(s.id(kind)), { token: s.owner.token, query: { level: 'custom', new_note: 'true', moved_project: 'true' } });
      expect(res.status).toBe(200);
      const events = Object.fromEntries(EVENT_KEYS.map((k) => [k, ['new_note', 'moved_project', 'failed_pipeline', 'fixed_pipeline'].includes(k)]));
      expect(res.body).toEqual({ level: 'custom', events });
      expect(Object.keys(res.body.events)).toEqual(EVENT_KEYS);
      expect((await api.get(url(s.id(kind)), { token: s.owner.token })).body).toEqual(res.body);

      // Form and JSON bodies; events can be turned off; a level change hides but keeps them.
      const form = await api.put(url(s.id(kind)), { token: s.owner.token, form: { fixed_pipeline: 'false', new_issue: '1' } });
      expect(form.body.events).toMatchObject({ fixed_pipeline: false, new_issue: true, new_note: true });
      const watch = await api.put(url(s.id(kind)), { token: s.owner.token, body: { level: 'watch' } });
      expect(watch.body).toEqual({ level: 'watch' });
      const back = await api.put(url(s.id(kind)), { token: s.owner.token, body: { level: 'custom' } });
      expect(back.body.events).toMatchObject({ fixed_pipeline: false, new_issue: true, new_note: true, moved_project: true });
    });

    it('events alone create the row at level global', async () => {
      const s = await sources();
      const res = await api.put(url(s.id(kind)), { token: s.owner.token, query: { new_note: 'true' } });
      expect(res.body).toEqual({ level: 'global' });
      const [row] = await rowsFor(s.owner.user.id, kind, s.id(kind));
      expect(row).toMatchObject({ level: 'global', new_note: true });
    });

    it('a PUT with nothing to change answers the current setting and stores nothing', async () => {
      const s = await sources();
      const res = await api.put(url(s.id(kind)), { token: s.owner.token });
      expect(res).toMatchObject({ status: 200, body: { level: 'global' } });
      expect(await rowsFor(s.owner.user.id, kind, s.id(kind))).toHaveLength(0);
    });

    it('invalid level 400 (model enum message); new_note=maybe 400 (Grape); notification_email is not a parameter here', async () => {
      const s = await sources();
      expect(await api.put(url(s.id(kind)), { token: s.owner.token, query: { level: 'invalid' } })).toMatchObject({
        status: 400,
        body: { message: "'invalid' is not a valid level" },
      });
      expect(await api.put(url(s.id(kind)), { token: s.owner.token, query: { level: 'custom', new_note: 'maybe' } })).toMatchObject({
        status: 400,
        body: { error: 'new_note is invalid' },
      });
      expect(await api.put(url(s.id(kind)), { token: s.owner.token, body: { level: null } })).toMatchObject({
        status: 400,
        body: { message: { level: ["can't be blank"] } },
      });
      expect(await rowsFor(s.owner.user.id, kind, s.id(kind))).toHaveLength(0);
      const res = await api.put(url(s.id(kind)), { token: s.owner.token, query: { level: 'watch', notification_email: 'x@example.com' } });
      expect(res).toMatchObject({ status: 200, body: { level: 'watch' } });
    });

    it('404 for a private source the caller cannot read (id and path forms), also for PUT and for invalid parameters', async () => {
      const s = await sources();
      const stranger = await createUser();
      for (const ref of [s.id(kind), s.path(kind)]) {
        expect(await api.get(url(ref), { token: stranger.token })).toMatchObject(notFound);
        expect(await api.put(url(ref), { token: stranger.token, query: { level: 'watch' } })).toMatchObject(notFound);
        // GitLab finds the source before the model sees the level.
        expect(await api.put(url(ref), { token: stranger.token, query: { level: 'invalid' } })).toMatchObject(notFound);
      }
      expect(await api.get(url(999_999_999), { token: stranger.token })).toMatchObject(notFound);
      expect(await api.get(url('no-such/thing'), { token: stranger.token })).toMatchObject(notFound);
      expect(await rowsFor(stranger.user.id, kind, s.id(kind))).toHaveLength(0);
    });

    it('any signed-in user may set their own level on a public source; settings are per user', async () => {
      const owner = await createUser();
      const group = await createGroup(owner.token, { visibility: 'public' });
      const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'public' });
      const id = kind === 'groups' ? group.id : project.id;
      const other = await createUser();
      expect((await api.put(url(id), { token: other.token, query: { level: 'watch' } })).body).toEqual({ level: 'watch' });
      expect((await api.get(url(id), { token: owner.token })).body).toEqual({ level: 'global' });
      expect((await api.get(url(id), { token: other.token })).body).toEqual({ level: 'watch' });
    });

    it('members of a private source (guest) may read and set their setting', async () => {
      const s = await sources();
      const guest = await createUser();
      await addMember(s.owner.token, kind, s.id(kind), guest.user.id, 10);
      expect((await api.put(url(s.id(kind)), { token: guest.token, query: { level: 'disabled' } })).body).toEqual({ level: 'disabled' });
    });

    it('new_epic: validated and ignored on the free tier; shown and stored on premium and ultimate', async () => {
      const s = await sources();
      const token = s.owner.token;
      expect(await api.put(url(s.id(kind)), { token, query: { level: 'custom', new_epic: 'maybe' } })).toMatchObject({
        status: 400,
        body: { error: 'new_epic is invalid' },
      });
      const free = await api.put(url(s.id(kind)), { token, query: { level: 'custom', new_epic: 'true' } });
      expect(free.status).toBe(200);
      expect(Object.keys(free.body.events)).toEqual(EVENT_KEYS);
      expect((await rowsFor(s.owner.user.id, kind, s.id(kind)))[0]!.new_epic).toBeNull();

      for (const tier of ['premium', 'ultimate'] as const) {
        const env = { INSTANCE_TIER: tier };
        const shown = await api.get(url(s.id(kind)), { token, env });
        expect(Object.keys(shown.body.events)).toEqual([...EVENT_KEYS, 'new_epic']);
        // Never set: false; the premium pass sets it to true, the ultimate pass back to false.
        expect(shown.body.events.new_epic).toBe(tier === 'ultimate');
        expect(await api.put(url(s.id(kind)), { token, env, query: { new_epic: 'maybe' } })).toMatchObject({
          status: 400,
          body: { error: 'new_epic is invalid' },
        });
        const set = await api.put(url(s.id(kind)), { token, env, body: { new_epic: tier === 'premium' } });
        expect(set.body.events.new_epic).toBe(tier === 'premium');
      }
      // Stored, but a free instance does not show it.
      expect((await rowsFor(s.owner.user.id, kind, s.id(kind)))[0]!.new_epic).toBe(false);
      expect((await api.get(url(s.id(kind)), { token })).body.events).not.toHaveProperty('new_epic');
    });

    it('budget: GET at most 2 queries, PUT at most 4', async () => {
      const s = await sources();
      const token = s.owner.token;
      await api.get('/user', { token });
      const get = await api.get(url(s.path(kind)), { token });
      const put = await api.put(url(s.path(kind)), { token, query: { level: 'custom', new_note: 'true' } });
      const again = await api.get(url(s.id(kind)), { token });
      expect([get.status, put.status, again.status]).toEqual([200, 200, 200]);
      expect(queryCount(get)).toBeLessThanOrEqual(2);
      expect(queryCount(again)).toBeLessThanOrEqual(2);
      expect(queryCount(put)).toBeLessThanOrEqual(4);
      console.log(`${kind}: GET ${queryCount(get)} queries, PUT ${queryCount(put)} queries`);
    });
  });
}
