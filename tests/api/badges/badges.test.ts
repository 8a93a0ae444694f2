// Badges of projects and groups (GitLab 13.6's /projects/:id/badges and /groups/:id/badges): readers list them (a
// project's list includes its groups' badges, rendered for the project), administrators render, create, change and
// delete them; placeholders %{project_path}, %{project_id}, %{default_branch}, %{commit_sha} are rendered.
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { badges } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

const LINK = 'https://ci.example.com/%{project_path}/-/commits/%{default_branch}';
const IMAGE = 'https://ci.example.com/%{project_id}/badges/%{commit_sha}/pipeline.svg';

async function projectWithCommit(token: string, namespaceId?: number) {
  const p = await createProject(token, { visibility: 'public', namespaceId });
  const commit = await api.post(`/projects/${p.id}/repository/commits`, {
    token,
    body: { branch: 'main', commit_message: 'init', actions: [{ action: 'create', file_path: 'README.md', content: 'hi' }] },
  });
  expect(commit.status).toBe(201);
  return { ...p, sha: commit.body.id as string };
}

describe('badges', () => {
  it("a project's badge is rendered with its path, id, default branch and head commit; group badges appear in its projects' lists", async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const p = await projectWithCommit(owner.token, group.id);
    const created = await api.post(`/projects/${p.id}/badges`, { token: owner.token, body: { link_url: LINK, image_url: IMAGE, name: 'pipeline' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'pipeline',
      link_url: LINK,
      image_url: IMAGE,
      rendered_link_url: `https://ci.example.com/${p.path_with_namespace}/-/commits/main`,
      rendered_image_url: `https://ci.example.com/${p.id}/badges/${p.sha}/pipeline.svg`,
      id: expect.any(Number),
      kind: 'project',
    });
    const groupBadge = await api.post(`/groups/${group.id}/badges`, {
      token: owner.token,
      body: { link_url: LINK, image_url: 'https://img.example.com/x.svg' },
    });
    expect(groupBadge.status).toBe(201);
    // In the group's own list nothing is rendered: there is no project.
    expect(groupBadge.body).toMatchObject({ name: null, rendered_link_url: LINK, kind: 'group' });

    const anonymous = await api.get(`/projects/${p.id}/badges`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('x-total')).toBe('2');
    expect(anonymous.body.map((b: { id: number; kind: string }) => [b.id, b.kind])).toEqual([
      [created.body.id, 'project'],
      [groupBadge.body.id, 'group'],
    ]);
    expect(anonymous.body[1].rendered_link_url).toBe(`https://ci.example.com/${p.path_with_namespace}/-/commits/main`);
    expect((await api.get(`/projects/${p.id}/badges`, { query: { name: 'pipe' } })).body).toEqual([]);
    expect((await api.get(`/projects/${p.id}/badges`, { query: { name: 'pipeline' } })).body.map((b: { id: number }) => b.id)).toEqual([created.body.id]);
    expect((await api.get(`/projects/${p.id}/badges/${groupBadge.body.id}`)).body.kind).toBe('group');

    const rendered = await api.get(`/projects/${p.id}/badges/render`, { token: owner.token, query: { link_url: LINK, image_url: IMAGE } });
    expect(rendered.body).toEqual({
      name: null,
      link_url: LINK,
      image_url: IMAGE,
      rendered_link_url: `https://ci.example.com/${p.path_with_namespace}/-/commits/main`,
      rendered_image_url: `https://ci.example.com/${p.id}/badges/${p.sha}/pipeline.svg`,
    });

    const changed = await api.put(`/projects/${p.id}/badges/${created.body.id}`, { token: owner.token, body: { name: 'ci' } });
    expect([changed.status, changed.body.name, changed.body.link_url]).toEqual([200, 'ci', LINK]);
    const viaProject = await api.delete(`/projects/${p.id}/badges/${groupBadge.body.id}`, { token: owner.token });
    expect([viaProject.status, viaProject.body]).toEqual([403, { message: 'To delete a Group badge please use the Group Badges API' }]);
    expect((await api.delete(`/projects/${p.id}/badges/${created.body.id}`, { token: owner.token })).status).toBe(204);
    const gone = await api.get(`/projects/${p.id}/badges/${created.body.id}`);
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
    // Another project's badge is not found through this one.
    const other = await createProject(owner.token, { visibility: 'public' });
    expect((await api.get(`/projects/${other.id}/badges/${groupBadge.body.id}`)).status).toBe(404);
  });

  it.each([
    [{ image_url: 'https://x.example/a.svg' }, { error: 'link_url is missing' }],
    [{ link_url: 'https://x.example/', image_url: 'ftp://x.example/a.svg' }, { message: { image_url: ['must be a valid URL'] } }],
    [{ link_url: 'not a url', image_url: 'https://x.example/a.svg' }, { message: { link_url: ['must be a valid URL'] } }],
    [{ link_url: '', image_url: 'https://x.example/a.svg' }, { message: { link_url: ["can't be blank", 'must be a valid URL'] } }],
  ])('400 for %j, and nothing is written', async (body, expected) => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const res = await api.post(`/projects/${p.id}/badges`, { token: owner.token, body });
    expect([res.status, res.body]).toEqual([400, expected]);
    const [row] = await testDb().db.select({ n: count() }).from(badges).where(eq(badges.projectId, p.id));
    expect(row!.n).toBe(0);
  });

  describeAuthorization('POST /projects/:id/badges', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'public' });
      const developer = await createUser();
      await addMember(owner.token, 'projects', p.id, developer.user.id, 30);
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token, insufficientRole: developer.token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/badges`, { token, body: { link_url: LINK, image_url: IMAGE } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });

  describeAuthorization('GET /groups/:id/badges (a private group)', {
    fixture: async () => {
      const owner = await createUser();
      const g = await createGroup(owner.token);
      return { allowed: owner.token, id: g.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.get(`/groups/${fx.id}/badges`, { token }),
    success: 200,
    anonymous: { status: 404, body: { message: '404 Group Not Found' } },
    nonMember: { status: 404, body: { message: '404 Group Not Found' } },
  });
});
