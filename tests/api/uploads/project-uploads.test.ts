// POST /projects/:id/uploads (GitLab 13.6): a Markdown attachment answered with alt, url, full_path and markdown,
// served at /<project>/uploads/<secret>/<filename> under the project's read rule (images inline, the rest as
// downloads), refused past the instance's max_attachment_size.
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { projectUploads } from '../../../db/schema/index.ts';
import { api, request, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

const form = (name: string, bytes: Uint8Array<ArrayBuffer> | string) => {
  const f = new FormData();
  f.append('file', new File([bytes], name));
  return f;
};

describe('project uploads', () => {
  it('201 with the Markdown for an image; served inline to readers; 404 to others', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const res = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, multipart: form('my shot.png', PNG) });
    expect(res.status).toBe(201);
    const url = res.body.url as string;
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\/my_shot\.png$/);
    expect(res.body).toEqual({ alt: 'my_shot', url, full_path: `/${p.path_with_namespace}${url}`, markdown: `![my_shot](${url})` });

    const served = await request('GET', res.body.full_path, { token: owner.token });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="my_shot.png"; filename*=UTF-8''my_shot.png`);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.text.length).toBe(PNG.length);
    expect((await request('GET', res.body.full_path)).status).toBe(404);
    expect((await request('GET', res.body.full_path, { token: (await createUser()).token })).status).toBe(404);
    expect((await request('GET', res.body.full_path.replace(/[0-9a-f]{32}/, '0'.repeat(32)), { token: owner.token })).status).toBe(404);
  });

  it('other files are linked and served as downloads, whatever they claim to be', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const html = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, multipart: form('evil.png', '<script>alert(1)</script>') });
    expect(html.status).toBe(201);
    const served = await request('GET', html.body.full_path);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'application/octet-stream']);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    const pdf = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, multipart: form('notes.pdf', '%PDF-1.4') });
    expect(pdf.body.markdown).toBe(`[notes.pdf](${pdf.body.url})`);
    expect(pdf.body.alt).toBe('notes');
  });

  it('400 without a file; 413 past max_attachment_size, and nothing is kept', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const missing = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'file is missing' }]);
    const text = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, body: { file: 'x' } });
    expect([text.status, text.body]).toEqual([400, { error: 'file is invalid' }]);

    const admin = await createAdmin();
    expect((await api.put('/application/settings', { token: admin.token, body: { max_attachment_size: 1 } })).status).toBe(200);
    try {
      const big = await api.post(`/projects/${p.id}/uploads`, { token: owner.token, multipart: form('big.bin', new Uint8Array(1024 * 1024 + 1)) });
      expect([big.status, big.body]).toEqual([413, { message: '413 Request Entity Too Large' }]);
    } finally {
      await api.put('/application/settings', { token: admin.token, body: { max_attachment_size: 10 } });
    }
    const [row] = await testDb().db.select({ n: count() }).from(projectUploads).where(eq(projectUploads.projectId, p.id));
    expect(row!.n).toBe(0);
  });

  describeAuthorization('POST /projects/:id/uploads (a private project)', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token);
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/uploads`, { token, multipart: form('a.txt', 'a') }),
    success: 201,
    nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  });
});
