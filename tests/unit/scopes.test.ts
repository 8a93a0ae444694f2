// lib/auth.ts scope table: which token scopes reach which endpoints (GitLab's allow_access_with_scope).
import { describe, expect, it } from 'vitest';
import { scopesFor } from '../../functions/lib/auth.ts';

describe('scopesFor', () => {
  it.each([
    ['GET', '/api/v4/projects', ['api', 'read_api']],
    ['HEAD', '/api/v4/projects', ['api', 'read_api']],
    ['POST', '/api/v4/projects', ['api']],
    ['GET', '/api/v4/user', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/user/keys', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/users', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/users/5', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/users/root/status', ['read_user', 'api', 'read_api']],
    ['POST', '/api/v4/users', ['api']],
    ['PUT', '/api/v4/users/5', ['api']],
    ['GET', '/api/v4/users/5/projects', ['api', 'read_api']],
    ['GET', '/api/v4/users/5/starred_projects', ['api', 'read_api']],
    ['GET', '/api/v4/users/5/events', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/events', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/version', ['read_user', 'api', 'read_api']],
    ['GET', '/api/v4/personal_access_tokens', ['api', 'read_api']],
    ['GET', '/api/v4/usersfoo', ['api', 'read_api']],
  ])('%s %s', (method, path, expected) => expect(scopesFor(method, path)).toEqual(expected));
});
