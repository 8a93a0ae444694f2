// The shared authorization suite on every notification-settings endpoint: anonymous 401, bad token 401, a scope that
// does not reach the endpoint 403, read_api on a PUT 403 insufficient_scope, a stranger to a private source 404.
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const INSUFFICIENT = {
  status: 403,
  body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'api read_api' },
};

/** The owner of a private group and of a private project in it; a stranger; the owner's read_api token. */
async function fixture() {
  const owner = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  const readApi = await createToken(owner.user, ['read_api']);
  return { allowed: owner.token, nonMember: stranger.token, readApi, group, project };
}
type Fx = Awaited<ReturnType<typeof fixture>>;

const endpoints: Array<{ title: string; path: (fx: Fx) => string; hidden?: unknown }> = [
  { title: '/notification_settings', path: () => '/notification_settings' },
  {
    title: '/groups/:id/notification_settings',
    path: (fx) => `/groups/${fx.group.id}/notification_settings`,
    hidden: { status: 404, body: { message: '404 Group Not Found' } },
  },
  {
    title: '/groups/:id/notification_settings (path)',
    path: (fx) => `/groups/${encodeURIComponent(fx.group.full_path)}/notification_settings`,
    hidden: { status: 404, body: { message: '404 Group Not Found' } },
  },
  {
    title: '/projects/:id/notification_settings',
    path: (fx) => `/projects/${fx.project.id}/notification_settings`,
    hidden: { status: 404, body: { message: '404 Project Not Found' } },
  },
  {
    title: '/projects/:id/notification_settings (path)',
    path: (fx) => `/projects/${encodeURIComponent(fx.project.path_with_namespace)}/notification_settings`,
    hidden: { status: 404, body: { message: '404 Project Not Found' } },
  },
];

for (const { title, path, hidden } of endpoints) {
  describeAuthorization(`GET ${title}`, {
    fixture,
    call: (fx, token) => api.get(path(fx), { token }),
    success: 200,
    anonymous: UNAUTHORIZED,
    // A stranger has a global setting of their own; only a hidden source is 404.
    nonMember: (hidden as { status: number; body: unknown } | undefined) ?? { status: 200 },
  });
  // read_api reaches every GET.
  describeAuthorization(`GET ${title} with a read_api token`, {
    fixture: async () => {
      const fx = await fixture();
      return { ...fx, allowed: fx.readApi };
    },
    call: (fx, token) => api.get(path(fx), { token }),
    success: 200,
  });
  describeAuthorization(`PUT ${title}`, {
    fixture: async () => {
      const fx = await fixture();
      return { ...fx, insufficientRole: fx.readApi };
    },
    call: (fx, token) => api.put(path(fx), { token, query: { level: 'watch' } }),
    success: 200,
    anonymous: UNAUTHORIZED,
    insufficientRole: INSUFFICIENT,
    nonMember: (hidden as { status: number; body: unknown } | undefined) ?? { status: 200 },
  });
}
