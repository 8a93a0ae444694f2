// The shared authorization suite for the administrators' queue metrics (GitLab's API::SidekiqMetrics,
// `authenticated_as_admin!`): anonymous 401, any other user 403.
import { createAdmin, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

describeAuthorization('GET /sidekiq/queue_metrics', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
  call: (_fx, token) => api.get('/sidekiq/queue_metrics', { token }),
  success: 200,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});
