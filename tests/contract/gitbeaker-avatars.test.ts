// Avatars and identities through @gitbeaker/rest, unmodified, against a served instance: the multipart bodies a real
// client builds are taken, the avatar_url it gets back serves the same bytes, and GitLab's refusals reach it intact.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createAdmin, createUser, unique } from '../factories/users.ts';

const PNG = Uint8Array.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082'
    .match(/../g)!
    .map((b) => parseInt(b, 16)),
);

describe('@gitbeaker/rest avatars and identities against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  const served = async (url: string, token?: string) => {
    const res = await fetch(url, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
    return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  it('Users.edit with an avatar and an identity; Projects.create and uploadAvatar; Groups.create', async () => {
    const admin = await createAdmin();
    const { user } = await createUser();
    const gl = new Gitlab({ host: server.url, token: admin.token });

    const uid = unique('gb');
    // Users.edit always sends a multipart form, whose keys gitbeaker does not snake_case: name them as GitLab does.
    const identity = { provider: 'github', extern_uid: uid } as { provider: string };
    const edited = await gl.Users.edit(user.id, { avatar: { content: new Blob([PNG]), filename: 'me.png' }, ...identity });
    expect(edited.avatar_url).toBe(`${server.url}/uploads/-/system/user/avatar/${user.id}/me.png`);
    expect(edited.identities).toEqual([{ provider: 'github', extern_uid: uid }]);
    expect(await served(edited.avatar_url as string)).toEqual({ status: 200, type: 'image/png', bytes: PNG });
    expect((await gl.Users.all({ externUid: uid, provider: 'github' })).map((u) => u.id)).toEqual([user.id]);

    const project = await gl.Projects.create({ name: unique('gb-avatar-'), avatar: { content: new Blob([PNG]), filename: 'logo.png' } });
    expect(project.avatar_url).toBe(`${server.url}/uploads/-/system/project/avatar/${project.id}/logo.png`);
    const uploaded = await gl.Projects.uploadAvatar(project.id, { content: new Blob([PNG]), filename: 'next.png' });
    expect(uploaded.avatar_url).toBe(`${server.url}/uploads/-/system/project/avatar/${project.id}/next.png`);
    // A private project's avatar needs a caller who may read the project.
    expect((await served(uploaded.avatar_url)).status).toBe(404);
    expect((await served(uploaded.avatar_url, admin.token)).bytes).toEqual(PNG);

    const path = unique('gb-group-');
    const group = await gl.Groups.create(path, path, { visibility: 'public', avatar: { content: new Blob([PNG]), filename: 'g.png' } });
    expect(group.avatar_url).toBe(`${server.url}/uploads/-/system/group/avatar/${group.id}/g.png`);
    expect((await served(group.avatar_url as string)).bytes).toEqual(PNG);
  });

  it('refusals reach the client as GitLab words them', async () => {
    const owner = await createUser();
    const gl = new Gitlab({ host: server.url, token: owner.token });
    const project = await gl.Projects.create({ name: unique('gb-refused-') });
    const error = (await gl.Projects.uploadAvatar(project.id, { content: new Blob(['<html></html>']), filename: 'x.png' }).catch((e: unknown) => e)) as {
      cause: { response: Response; description: string };
    };
    expect(error.cause.response.status).toBe(400);
    expect(JSON.parse(error.cause.description)).toEqual({
      avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico'],
    });
  });
});
