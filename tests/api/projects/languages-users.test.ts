// GET /projects/:id/languages (the default branch's languages by share of bytes, Ruby's float spelling) and GET
// /projects/:id/users (the project's team: direct, inherited and shared members, with search and skip_users).
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

describe('GET /projects/:id/languages', () => {
  it('shares of the programming languages, largest first, vendored files and data left out; {} for an empty repository', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    expect((await api.get(`/projects/${p.id}/languages`)).text).toBe('{}');
    const file = (path: string, bytes: number) => ({ action: 'create', file_path: path, content: 'x'.repeat(bytes) });
    const commit = await api.post(`/projects/${p.id}/repository/commits`, {
      token: owner.token,
      body: {
        branch: 'main',
        commit_message: 'init',
        actions: [
          file('app/main.rb', 600),
          file('lib/util.RB', 200),
          file('web/app.js', 150),
          file('Makefile', 50),
          file('vendor/big.js', 10_000),
          file('README.md', 5_000),
          file('config.yml', 5_000),
        ],
      },
    });
    expect(commit.status).toBe(201);
    const res = await api.get(`/projects/${p.id}/languages`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe('{"Ruby":80.0,"JavaScript":15.0,"Makefile":5.0}');
    const hidden = await createProject(owner.token);
    expect((await api.get(`/projects/${hidden.id}/languages`)).status).toBe(404);
  });
});

describe('GET /projects/:id/users', () => {
  it('lists direct, inherited and shared members (UserBasic, paginated), searchable, skip_users as a list or comma-separated', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const p = await createProject(owner.token, { namespaceId: group.id });
    const [direct, inherited, shared, stranger] = [await createUser(), await createUser(), await createUser(), await createUser()];
    await addMember(owner.token, 'projects', p.id, direct.user.id, 30);
    await addMember(owner.token, 'groups', group.id, inherited.user.id, 20);
    const team = await createGroup(owner.token);
    await addMember(owner.token, 'groups', team.id, shared.user.id, 30);
    expect((await api.post(`/projects/${p.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 20 } })).status).toBe(201);

    const res = await api.get(`/projects/${p.id}/users`, { token: direct.token });
    expect(res.status).toBe(200);
    const ids = [owner.user.id, direct.user.id, inherited.user.id, shared.user.id].sort((a, b) => a - b);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual(ids);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.body.find((u: { id: number }) => u.id === direct.user.id)).toEqual({
      id: direct.user.id,
      name: direct.user.name,
      username: direct.user.username,
      state: 'active',
      avatar_url: null,
      web_url: `https://gitlab.example.test/${direct.user.username}`,
    });
    expect(res.body.map((u: { id: number }) => u.id)).not.toContain(stranger.user.id);
    const searched = await api.get(`/projects/${p.id}/users`, { token: direct.token, query: { search: inherited.user.username } });
    expect(searched.body.map((u: { id: number }) => u.id)).toEqual([inherited.user.id]);
    const skipped = await api.get(`/projects/${p.id}/users`, { token: direct.token, query: { skip_users: `${owner.user.id},${direct.user.id}` } });
    expect(skipped.body.map((u: { id: number }) => u.id)).toEqual([inherited.user.id, shared.user.id].sort((a, b) => a - b));
    const listed = await api.get(`/projects/${p.id}/users`, { token: direct.token, query: { 'skip_users[]': [String(shared.user.id)] } });
    expect(listed.body.map((u: { id: number }) => u.id)).not.toContain(shared.user.id);
    expect((await api.get(`/projects/${p.id}/users`, { token: stranger.token })).status).toBe(404);
    const bad = await api.get(`/projects/${p.id}/users`, { token: direct.token, query: { skip_users: 'x' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'skip_users is invalid' }]);
  });
});
