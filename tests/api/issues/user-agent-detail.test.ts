// User agent details (GitLab 13.6): creating an issue or a snippet records the request's User-Agent and IP in the
// same write, and only administrators read them (GET .../user_agent_detail; 404 `UserAgentDetail Not Found` where
// nothing was recorded).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userAgentDetails } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const AGENT = 'python-gitlab/3.12.0';

describe('user agent details', () => {
  it("issues and snippets keep their creator's User-Agent and IP, for administrators", async () => {
    const owner = await createUser();
    const admin = await createAdmin();
    const p = await createProject(owner.token, { visibility: 'public' });
    const headers = { 'User-Agent': AGENT, 'CF-Connecting-IP': '203.0.113.7' };
    const issue = await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'spam?' }, headers });
    expect(issue.status).toBe(201);
    const detail = await api.get(`/projects/${p.id}/issues/${issue.body.iid}/user_agent_detail`, { token: admin.token });
    expect([detail.status, detail.body]).toEqual([200, { user_agent: AGENT, ip_address: '203.0.113.7', akismet_submitted: false }]);

    const personal = await api.post('/snippets', { token: owner.token, body: { title: 's', file_name: 'a', content: 'x', visibility: 'public' }, headers });
    expect(personal.status).toBe(201);
    expect((await api.get(`/snippets/${personal.body.id}/user_agent_detail`, { token: admin.token })).body).toEqual({
      user_agent: AGENT,
      ip_address: '203.0.113.7',
      akismet_submitted: false,
    });
    const projectSnippet = await api.post(`/projects/${p.id}/snippets`, {
      token: owner.token,
      body: { title: 's', file_name: 'a', content: 'x', visibility: 'public' },
      headers: { 'User-Agent': 'curl/8', 'CF-Connecting-IP': '198.51.100.1' },
    });
    expect(projectSnippet.status).toBe(201);
    expect((await api.get(`/projects/${p.id}/snippets/${projectSnippet.body.id}/user_agent_detail`, { token: admin.token })).body).toMatchObject({
      user_agent: 'curl/8',
      ip_address: '198.51.100.1',
    });

    // Owners are not administrators; a missing issue is 404 only once the caller is one.
    expect(await api.get(`/projects/${p.id}/issues/${issue.body.iid}/user_agent_detail`, { token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api.get(`/projects/${p.id}/issues/99999/user_agent_detail`, { token: admin.token })).toMatchObject({
      status: 404,
      body: { message: '404 Issue Not Found' },
    });
    // Nothing recorded (e.g. made before this was kept): GitLab's message.
    await testDb().db.delete(userAgentDetails).where(eq(userAgentDetails.issueId, issue.body.id));
    expect(await api.get(`/projects/${p.id}/issues/${issue.body.iid}/user_agent_detail`, { token: admin.token })).toMatchObject({
      status: 404,
      body: { message: '404 UserAgentDetail Not Found' },
    });
  });

  describeAuthorization('GET /snippets/:id/user_agent_detail', {
    fixture: async () => {
      const owner = await createUser();
      const snippet = await api.post('/snippets', { token: owner.token, body: { title: 's', file_name: 'a', content: 'x', visibility: 'public' } });
      return { allowed: (await createAdmin()).token, id: snippet.body.id, nonMember: owner.token };
    },
    call: (fx, token) => api.get(`/snippets/${fx.id}/user_agent_detail`, { token }),
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    success: 200,
  });
});
