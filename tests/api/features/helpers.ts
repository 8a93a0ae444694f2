// Reading one feature back through GET /features, walking its pages (the list is paginated like every other).
import { expect } from 'vitest';
import { api } from '../../helpers/app.ts';

/** The feature as GET /features lists it (undefined when not persisted). */
export async function listedFeature(token: string, name: string) {
  for (let page = '1'; page; ) {
    const res = await api.get('/features', { token, query: { page, per_page: '100' } });
    expect(res.status).toBe(200);
    const found = (res.body as any[]).find((f) => f.name === name);
    if (found) return found;
    page = res.headers.get('x-next-page')!;
  }
  return undefined;
}
