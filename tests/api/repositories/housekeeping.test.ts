// POST /projects/:id/housekeeping (GitLab 13.6 lib/api/projects.rb, Projects::HousekeepingService with :gc): a
// maintainer starts the project's repack now (the git_garbage_collect job; the clone pack of
// functions/repositories/transport/repack.ts), once a day per project; inside that lease 409 with GitLab's words.
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { gitPacks } from '../../../db/schema/index.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithMaintainer } from './team-support.ts';

const housekeeping = (projectId: number, token: string | undefined) => api.post(`/projects/${projectId}/housekeeping`, { token });
const currentPack = async (projectId: number) =>
  (
    await testDb()
      .db.select()
      .from(gitPacks)
      .where(and(eq(gitPacks.projectId, projectId), isNull(gitPacks.replacedAt)))
  )[0];

describe('POST /projects/:id/housekeeping', () => {
  it("201 with the job's id; the project is repacked; a second request within the day is 409", async () => {
    const fx = await projectWithMaintainer('hk');
    // Far below GIT_GC_AUTO: no push repacked it.
    expect(await currentPack(fx.project.id)).toBeUndefined();
    const res = await housekeeping(fx.project.id, fx.maintainer.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatch(/^\d+$/);
    // The job runs right after the response (a prompt queue), as Sidekiq would pick it up.
    expect(await currentPack(fx.project.id)).toMatchObject({ objectCount: 3 });
    const again = await housekeeping(fx.project.id, fx.owner.token);
    expect([again.status, again.body]).toEqual([409, { message: 'Somebody already triggered housekeeping for this project in the past 1440 minutes' }]);
  });
});

describeAuthorization('POST /projects/:id/housekeeping', {
  fixture: async () => {
    const fx = await projectWithMaintainer('hk-auth');
    const stranger = await createUser();
    return { ...fx, allowed: fx.maintainer.token, nonMember: stranger.token, insufficientRole: fx.developer.token };
  },
  call: (fx, token) => housekeeping(fx.project.id, token),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
