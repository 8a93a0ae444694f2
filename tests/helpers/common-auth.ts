// One generator for every endpoint's authorization tests (unkey's runCommonAuthTests): no token, bad token, wrong
// scope, non-member, insufficient role, another user's resource. Each domain calls it for its endpoints.
import { describe, expect, it } from 'vitest';
import type { TestResponse } from './app.ts';
import { createToken, createUser } from '../factories/users.ts';

export interface AuthFixture {
  /** A token that is allowed (the success case). */
  allowed: string;
  /** A signed-in user with no relation to the resource. */
  nonMember?: string;
  /** A member whose role is too low. */
  insufficientRole?: string;
  /** A user acting on a resource that belongs to someone else. */
  otherUser?: string;
}

type Expectation = { status: number; body?: unknown };

export interface AuthSpec<F extends AuthFixture> {
  fixture: () => Promise<F>;
  /** Makes the request under test with `token` (undefined = anonymous). */
  call: (fixture: F, token: string | undefined) => Promise<TestResponse>;
  /** Status of the allowed call. */
  success: number;
  /** Anonymous: 401 by default (public reads override this). */
  anonymous?: Expectation;
  /** A token with a scope that does not reach the endpoint (default read_repository -> 403 insufficient_scope). */
  wrongScope?: Expectation;
  nonMember?: Expectation;
  insufficientRole?: Expectation;
  otherUser?: Expectation;
}

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };

function check(res: TestResponse, e: Expectation) {
  expect(res.status, res.text).toBe(e.status);
  if (e.body !== undefined) expect(res.body).toEqual(e.body);
}

/**
 * The cases share one fixture, built once: a refused call changes nothing, and the permitted call (which may write
 * or delete) runs last. A refusal that did write would show there too.
 */
export function describeAuthorization<F extends AuthFixture>(title: string, spec: AuthSpec<F>) {
  describe(`authorization: ${title}`, () => {
    let built: Promise<F> | undefined;
    const fixture = () => (built ??= spec.fixture());
    it('no token', async () => {
      const fx = await fixture();
      check(await spec.call(fx, undefined), spec.anonymous ?? UNAUTHORIZED);
    });
    it('bad token: 401', async () => {
      const fx = await fixture();
      check(await spec.call(fx, 'glpat-not-a-real-token'), UNAUTHORIZED);
    });
    it('token with a scope that does not reach the endpoint', async () => {
      const fx = await fixture();
      const { user } = await createUser();
      const token = await createToken(user, ['read_repository']);
      const res = await spec.call(fx, token);
      if (spec.wrongScope) check(res, spec.wrongScope);
      else {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('insufficient_scope');
      }
    });
    for (const key of ['nonMember', 'insufficientRole', 'otherUser'] as const) {
      const expectation = spec[key];
      if (!expectation) continue;
      it(`${key}: ${expectation.status}`, async () => {
        const fx = await fixture();
        const token = fx[key];
        if (!token) throw new Error(`fixture has no ${key} token`);
        check(await spec.call(fx, token), expectation);
      });
    }
    it('allows the permitted caller', async () => {
      const fx = await fixture();
      expect((await spec.call(fx, fx.allowed)).status).toBe(spec.success);
    });
  });
}
