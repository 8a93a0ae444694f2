// GitLab's offset cap (API::Helpers::PaginationStrategies, plan limit offset_pagination_limit, default 50,000): on a
// listing that offers keyset pagination, `page * per_page` above the limit answers 405 pointing to keyset pagination,
// which walks past it. The limit is set low through the request's configuration (OFFSET_PAGINATION_LIMIT) so no
// 50,000 rows are needed.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { insertTestEvent } from '../../factories/events.ts';
import { api, testDb } from '../../helpers/app.ts';

const message = (limit: number, type: string) =>
  `Offset pagination has a maximum allowed offset of ${limit} for requests that return objects of type ${type}. ` +
  'Remaining records can be retrieved using keyset pagination.';

const low = { OFFSET_PAGINATION_LIMIT: '10' };
const HEADERS = ['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages', 'link'];
const headersOf = (h: Headers) => Object.fromEntries(HEADERS.map((n) => [n, h.get(n)]));

/** Follows Link rel="next" from `query`, returning every id seen. */
async function walkKeyset(path: string, token: string, first: Record<string, string>, env = low) {
  const seen: number[] = [];
  let query = first;
  for (let guard = 0; guard < 20; guard++) {
    const page = await api.get(path, { token, query, env });
    expect(page.status).toBe(200);
    seen.push(...page.body.map((r: { id: number }) => r.id));
    const link = page.headers.get('link');
    if (!link) return seen;
    const m = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(m).not.toBeNull();
    query = Object.fromEntries(new URL(m![1]!).searchParams);
  }
  throw new Error('keyset walk did not end');
}

async function userWithProjects(n: number) {
  const { user, token } = await createUser();
  const tag = unique('cap');
  await testDb().db.execute(sql`
    INSERT INTO projects (namespace_id, creator_id, name, path, path_with_namespace, visibility_level)
    SELECT n.id, ${user.id}, ${tag} || '-' || i, ${tag} || '-' || i, n.full_path || '/' || ${tag} || '-' || i, 20
    FROM namespaces n, generate_series(1, ${n}) AS i
    WHERE n.owner_id = ${user.id} AND n.kind = 'user'`);
  return { user, token, tag };
}

describe('offset pagination limit: projects', () => {
  it("405 with GitLab's message when page * per_page exceeds the limit; pages up to it are unchanged", async () => {
    const { token, tag } = await userWithProjects(12);
    const base = { search: tag, simple: true, order_by: 'id', sort: 'asc' };

    // page * per_page = 10: not above the limit, and the same answer as without one.
    const at = await api.get('/projects', { token, query: { ...base, per_page: 5, page: 2 }, env: low });
    const uncapped = await api.get('/projects', { token, query: { ...base, per_page: 5, page: 2 } });
    expect(at.status).toBe(200);
    expect(at.body).toHaveLength(5);
    expect(at.body).toEqual(uncapped.body);
    expect(headersOf(at.headers)).toEqual(headersOf(uncapped.headers));

    const over = await api.get('/projects', { token, query: { ...base, per_page: 5, page: 3 }, env: low });
    expect(over.status).toBe(405);
    expect(over.body).toEqual({ error: message(10, 'Project') });
    // GitLab multiplies the parameters as sent: the default per_page (20) and a per_page above the clamp count.
    expect((await api.get('/projects', { token, query: base, env: low })).status).toBe(405);
    expect((await api.get('/projects', { token, query: { ...base, per_page: 1000 }, env: { OFFSET_PAGINATION_LIMIT: '999' } })).status).toBe(405);
    // 0 turns the limit off.
    expect((await api.get('/projects', { token, query: { ...base, per_page: 5, page: 3 }, env: { OFFSET_PAGINATION_LIMIT: '0' } })).status).toBe(200);
  });

  it('keyset pagination walks past the limit', async () => {
    const { token, tag } = await userWithProjects(12);
    const all = await api.get('/projects', { token, query: { search: tag, simple: true, order_by: 'id', sort: 'asc', per_page: 100 } });
    const ids = all.body.map((p: { id: number }) => p.id);
    expect(ids).toHaveLength(12);
    const seen = await walkKeyset('/projects', token, { search: tag, simple: 'true', pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: '5' });
    expect(seen).toEqual(ids);
  });

  it("the default limit is GitLab's 50,000", async () => {
    const { token, tag } = await userWithProjects(1);
    const over = await api.get('/projects', { token, query: { search: tag, page: 2501 } });
    expect(over.status).toBe(405);
    expect(over.body).toEqual({ error: message(50000, 'Project') });
    const at = await api.get('/projects', { token, query: { search: tag, page: 2500 } });
    expect(at.status).toBe(200);
    expect(at.body).toEqual([]);
  });

  it('applies to forks', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const res = await api.get(`/projects/${p.id}/forks`, { token: owner.token, query: { per_page: 5, page: 3 }, env: low });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: message(10, 'Project') });
  });
});

describe('offset pagination limit: events', () => {
  it('405 naming Event on the three listings; keyset walks past it; pages up to it are unchanged', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    for (let i = 0; i < 12; i++) await insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'joined' });
    const paths = ['/events', `/projects/${p.id}/events`, `/users/${owner.user.id}/events`];
    for (const path of paths) {
      const at = await api.get(path, { token: owner.token, query: { per_page: 5, page: 2 }, env: low });
      const uncapped = await api.get(path, { token: owner.token, query: { per_page: 5, page: 2 } });
      expect(at.status).toBe(200);
      expect(at.body).toHaveLength(5);
      expect(at.body).toEqual(uncapped.body);
      expect(headersOf(at.headers)).toEqual(headersOf(uncapped.headers));

      const over = await api.get(path, { token: owner.token, query: { per_page: 5, page: 3 }, env: low });
      expect(over.status).toBe(405);
      expect(over.body).toEqual({ error: message(10, 'Event') });

      const all = await api.get(path, { token: owner.token, query: { per_page: 100 } });
      expect(all.body.length).toBeGreaterThanOrEqual(12);
      const seen = await walkKeyset(path, owner.token, { pagination: 'keyset', per_page: '5' });
      expect(seen).toEqual(all.body.map((e: { id: number }) => e.id));
    }
  }, 120_000); // 3 listings x (offset pages + a keyset walk): dozens of requests, slow on a loaded PostgreSQL run
});

describe('deep offset pages and totals check visibility per event (events of projects the viewer cannot read)', () => {
  it('offset pages of /users/:id/events are slices of the visible list, and X-Total counts only visible events', async () => {
    const author = await createUser();
    const viewer = await createUser();
    const open = await createProject(author.token, { visibility: 'public' });
    const closed = await createProject(author.token, { visibility: 'private' });
    for (let i = 0; i < 12; i++) {
      await insertTestEvent({ authorId: author.user.id, projectId: i % 2 ? closed.id : open.id, action: 'joined' });
    }
    const path = `/users/${author.user.id}/events`;
    const all = await api.get(path, { token: viewer.token, query: { per_page: 100 } });
    expect(all.status).toBe(200);
    const visible = all.body.map((e: { id: number }) => e.id);
    expect(all.body.every((e: { project_id: number }) => e.project_id === open.id)).toBe(true);
    expect(visible.length).toBeGreaterThanOrEqual(6);
    for (const page of [1, 2, 3]) {
      const res = await api.get(path, { token: viewer.token, query: { per_page: 2, page } });
      expect(res.body.map((e: { id: number }) => e.id)).toEqual(visible.slice((page - 1) * 2, page * 2));
      expect(res.headers.get('x-total')).toBe(String(visible.length));
    }
    // The author sees both projects' events (the private project's creation included).
    const own = await api.get(path, { token: author.token, query: { per_page: 2, page: 4 } });
    expect(own.headers.get('x-total')).toBe(String(visible.length + 7));
  });
});
