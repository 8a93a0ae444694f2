// Past 10,000 rows GitLab stops counting: no X-Total, no X-Total-Pages, no rel="last".
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api, testDb } from '../../helpers/app.ts';
import { createUser, unique } from '../../factories/users.ts';

describe('pagination over more than 10,000 rows', () => {
  it('omits the totals and rel="last", keeps next/prev', async () => {
    const { user, token } = await createUser();
    const tag = unique('many');
    await testDb().db.execute(sql`
      INSERT INTO projects (namespace_id, creator_id, name, path, path_with_namespace, visibility_level)
      SELECT n.id, ${user.id}, ${tag} || '-' || i, ${tag} || '-' || i, n.full_path || '/' || ${tag} || '-' || i, 20
      FROM namespaces n, generate_series(1, 10001) AS i
      WHERE n.owner_id = ${user.id} AND n.kind = 'user'`);
    const res = await api.get('/projects', { token, query: { search: tag, per_page: 100, page: 2, simple: true } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.headers.get('x-total-pages')).toBeNull();
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    const rels = [...(res.headers.get('link') ?? '').matchAll(/rel="(\w+)"/g)].map((m) => m[1]);
    expect(rels).toEqual(['prev', 'next', 'first']);

    // 10,000 exactly is still counted.
    await testDb().db.execute(sql`DELETE FROM projects WHERE name = ${`${tag}-10001`}`);
    const counted = await api.get('/projects', { token, query: { search: tag, per_page: 100, simple: true } });
    expect(counted.headers.get('x-total')).toBe('10000');
    expect(counted.headers.get('x-total-pages')).toBe('100');
  }, 60_000);
});
