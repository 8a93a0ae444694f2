// GET /projects/:id/issues/:issue_iid/participants (GitLab 13.6 lib/api/issues.rb): Participable's author, assignees
// and authors of the notes the caller may read, each once, paginated Entities::UserBasic.
import { describe, expect, it } from 'vitest';
import { insertNote } from '../../../db/queries/notes.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

describe('GET /projects/:id/issues/:issue_iid/participants', () => {
  it('author, assignees, note authors (confidential notes only for who may read them), each once', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const guest = await createUser();
    const stranger = await createUser();
    const project = await createProject(owner.token);
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const issue = await createIssue(owner.token, project.id, { assignee_ids: [dev.user.id] });
    const note = (authorId: number, confidential = false) =>
      insertNote(testDb().db, { noteableType: 'Issue', noteableId: issue.id, projectId: project.id, authorId, body: 'hm', confidential });
    await note(guest.user.id);
    await note(dev.user.id);
    await note(stranger.user.id, true);
    const url = `/projects/${project.id}/issues/${issue.iid}/participants`;
    const res = await api.get(url, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([owner.user.id, dev.user.id, guest.user.id, stranger.user.id]);
    expect(res.headers.get('x-total')).toBe('4');
    // A guest may not read the confidential note: its author is not listed for them.
    expect((await api.get(url, { token: guest.token })).body.map((u: { id: number }) => u.id)).toEqual([owner.user.id, dev.user.id, guest.user.id]);
    expect((await api.get(url, { token: stranger.token })).status).toBe(404);
    expect((await api.get(`/projects/${project.id}/issues/999/participants`, { token: owner.token })).body).toEqual({ message: '404 Issue Not Found' });
  });
});
