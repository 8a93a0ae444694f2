// An issue closed by a merge ("Closes #N") records its state event in the merge's batch, so burnups see it.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { resourceStateEvents } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { mrProject, mrs, openMergeRequest } from '../merge-requests/support.ts';

it('a merge that closes an issue records the closed state event', async () => {
  const fx = await mrProject();
  const issue = (await api.post(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, body: { title: 'Bug' } })).body as { iid: number; id: number };
  const mr = await openMergeRequest(fx, { description: `Closes #${issue.iid}` });
  const res = await api.put(`${mrs(fx)}/${mr.iid}/merge`, { token: fx.owner.token });
  expect(res.status, res.text).toBe(200);
  const recorded = await testDb().db.select().from(resourceStateEvents).where(eq(resourceStateEvents.issueId, issue.id));
  expect(recorded.map((e) => [e.state, e.userId])).toEqual([['closed', fx.owner.user.id]]);
});
