// The shared authorization suite for personal and project snippets: lists and writes want a signed-in user (401),
// hidden snippets are 404 `Snippet Not Found` (hidden projects `Project Not Found`), visible ones the caller may not
// change are 403, read_api tokens may not write.
import { expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet, createSnippet } from '../../factories/snippets.ts';
import { createToken, createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };
const SNIPPET_NOT_FOUND = { status: 404, body: { message: '404 Snippet Not Found' } };
const PROJECT_NOT_FOUND = { status: 404, body: { message: '404 Project Not Found' } };

async function personal(visibility: 'private' | 'internal' | 'public') {
  const author = await createUser();
  const other = await createUser();
  const snippet = await createSnippet(author.token, { visibility });
  return { author, other, snippet };
}

describeAuthorization('GET /snippets', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/snippets', { token }),
  success: 200,
});

describeAuthorization('GET /snippets/public', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/snippets/public', { token }),
  success: 200,
});

describeAuthorization('GET /snippets/:id (private)', {
  fixture: async () => {
    const fx = await personal('private');
    return { ...fx, allowed: fx.author.token, otherUser: fx.other.token };
  },
  call: (fx, token) => api.get(`/snippets/${fx.snippet.id}`, { token }),
  success: 200,
  anonymous: SNIPPET_NOT_FOUND,
  otherUser: SNIPPET_NOT_FOUND,
});

describeAuthorization('GET /snippets/:id/raw (public: anonymous may read)', {
  fixture: async () => {
    const fx = await personal('public');
    return { ...fx, allowed: fx.other.token };
  },
  call: (fx, token) => api.get(`/snippets/${fx.snippet.id}/raw`, { token }),
  success: 200,
  anonymous: { status: 200 },
});

describeAuthorization('POST /snippets', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.post('/snippets', { token, body: { title: unique('s'), file_name: 'a', content: 'b' } }),
  success: 201,
});

describeAuthorization('PUT /snippets/:id (internal)', {
  fixture: async () => {
    const fx = await personal('internal');
    return { ...fx, allowed: fx.author.token, otherUser: fx.other.token };
  },
  call: (fx, token) => api.put(`/snippets/${fx.snippet.id}`, { token, body: { title: 'changed' } }),
  success: 200,
  otherUser: FORBIDDEN,
});

describeAuthorization('DELETE /snippets/:id (private)', {
  fixture: async () => {
    const fx = await personal('private');
    return { ...fx, allowed: fx.author.token, otherUser: fx.other.token };
  },
  call: (fx, token) => api.delete(`/snippets/${fx.snippet.id}`, { token }),
  success: 204,
  otherUser: SNIPPET_NOT_FOUND,
});

async function projectFixture(visibility: 'private' | 'public') {
  const owner = await createUser();
  const reporter = await createUser();
  const developer = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const snippet = await createProjectSnippet(owner.token, project.id, { visibility: 'private' });
  return { owner, reporter, developer, guest, stranger, project, snippet, nonMember: stranger.token };
}

describeAuthorization('GET /projects/:id/snippets (private project)', {
  fixture: async () => {
    const fx = await projectFixture('private');
    return { ...fx, allowed: fx.guest.token };
  },
  call: (fx, token) => api.get(`/projects/${fx.project.id}/snippets`, { token }),
  success: 200,
  anonymous: PROJECT_NOT_FOUND,
  nonMember: PROJECT_NOT_FOUND,
});

describeAuthorization('GET /projects/:id/snippets/:snippet_id (private snippet of a public project)', {
  fixture: async () => {
    const fx = await projectFixture('public');
    return { ...fx, allowed: fx.guest.token };
  },
  call: (fx, token) => api.get(`/projects/${fx.project.id}/snippets/${fx.snippet.id}`, { token }),
  success: 200,
  anonymous: SNIPPET_NOT_FOUND,
  nonMember: SNIPPET_NOT_FOUND,
});

describeAuthorization('POST /projects/:id/snippets', {
  fixture: async () => {
    const fx = await projectFixture('private');
    return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) =>
    api.post(`/projects/${fx.project.id}/snippets`, { token, body: { title: unique('s'), visibility: 'private', file_name: 'a', content: 'b' } }),
  success: 201,
  nonMember: PROJECT_NOT_FOUND,
  insufficientRole: FORBIDDEN,
});

describeAuthorization('PUT /projects/:id/snippets/:snippet_id', {
  fixture: async () => {
    const fx = await projectFixture('private');
    return { ...fx, allowed: fx.owner.token, insufficientRole: fx.developer.token };
  },
  call: (fx, token) => api.put(`/projects/${fx.project.id}/snippets/${fx.snippet.id}`, { token, body: { title: 'changed' } }),
  success: 200,
  nonMember: PROJECT_NOT_FOUND,
  insufficientRole: FORBIDDEN,
});

describeAuthorization('DELETE /projects/:id/snippets/:snippet_id', {
  fixture: async () => {
    const fx = await projectFixture('private');
    return { ...fx, allowed: fx.owner.token, insufficientRole: fx.developer.token };
  },
  call: (fx, token) => api.delete(`/projects/${fx.project.id}/snippets/${fx.snippet.id}`, { token }),
  success: 204,
  nonMember: PROJECT_NOT_FOUND,
  insufficientRole: FORBIDDEN,
});

it('a read_api token reads snippets but may not write them', async () => {
  const { user, token } = await createUser();
  const readOnly = await createToken(user, ['read_api']);
  const s = await createSnippet(token);
  expect((await api.get(`/snippets/${s.id}`, { token: readOnly })).status).toBe(200);
  expect((await api.get('/snippets', { token: readOnly })).status).toBe(200);
  const write = await api.put(`/snippets/${s.id}`, { token: readOnly, body: { title: 'x' } });
  expect(write.status).toBe(403);
  expect(write.body.error).toBe('insufficient_scope');
});
