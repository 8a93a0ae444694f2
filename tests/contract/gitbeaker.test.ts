// A real GitLab client, unmodified, against a served instance: @gitbeaker/rest speaks to us over HTTP exactly as it
// speaks to gitlab.com.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUser, unique } from '../factories/users.ts';

describe('@gitbeaker/rest against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('groups, projects, owned listing, star/unstar, members (409 on the second add), pagination', async () => {
    const me = await createUser();
    const friend = await createUser();
    const gl = new Gitlab({ host: server.url, token: me.token });

    const path = unique('grp');
    const group = await gl.Groups.create(`Group ${path}`, path, { visibility: 'private' });
    expect(group.full_path).toBe(path);

    const inGroup = await gl.Projects.create({ name: unique('in-group'), namespaceId: group.id });
    expect(inGroup.namespace.id).toBe(group.id);
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await gl.Projects.create({ name: unique(`mine-${i}-`) }));

    // owned: the personal projects and the group project (the creator owns the group).
    const owned = await gl.Projects.all({ owned: true, perPage: 2 });
    expect(owned.map((p) => p.id).sort()).toEqual([...created, inGroup].map((p) => p.id).sort());

    const page = await gl.Projects.all({ owned: true, perPage: 2, maxPages: 1, showExpanded: true });
    expect(page.data).toHaveLength(2);
    expect(page.paginationInfo).toMatchObject({ total: 6, totalPages: 3, perPage: 2, current: 1, next: 2, previous: null });

    const starred = await gl.Projects.star(created[0]!.id);
    expect(starred.star_count).toBe(1);
    const unstarred = await gl.Projects.unstar(created[0]!.id);
    expect(unstarred.star_count).toBe(0);

    const member = await gl.ProjectMembers.add(created[1]!.id, 30, { userId: friend.user.id });
    expect(member).toMatchObject({ id: friend.user.id, username: friend.user.username, access_level: 30 });
    const second = await gl.ProjectMembers.add(created[1]!.id, 30, { userId: friend.user.id }).then(
      () => null,
      (error: any) => error,
    );
    expect(second).not.toBeNull();
    expect(second.cause?.response?.status).toBe(409);
    expect(second.cause?.description).toBe('Member already exists');

    const members = await gl.ProjectMembers.all(created[1]!.id);
    expect(members.map((m) => m.username).sort()).toEqual([me.user.username, friend.user.username].sort());
  });
});
