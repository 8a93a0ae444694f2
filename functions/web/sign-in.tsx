// GET/POST /users/sign_in and POST /users/sign_out. Every failed sign-in shows the same sentence, whether the login
// is unknown, the password wrong, the user blocked or the account locked (users/authenticate.ts).
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { isDomainError } from '../lib/errors.ts';
import { clientIp } from '../lib/rate-limit.ts';
import { getCookie } from 'hono/cookie';
import { endSession, SESSION_COOKIE, startSession } from '../lib/session.ts';
import { checkPassword } from '../users/authenticate.ts';
import { ErrorPage, Flash, Layout } from './layout.tsx';
import { field, pageUser, readForm, safeReturnTo, sessionCsrfOk, signInCsrfOk, signInCsrfToken } from './security.ts';

export const INVALID_LOGIN = 'Invalid login or password.';

export const signIn = new Hono<AppEnv>();

const SignInPage = ({
  csrf,
  returnTo,
  login,
  alert,
  notice,
}: {
  csrf: string;
  returnTo: string;
  login?: string | undefined;
  alert?: string | undefined;
  notice?: string | undefined;
}) => (
  <Layout title="Sign in">
    <h1>Sign in</h1>
    <Flash alert={alert} notice={notice} />
    <form method="post" action="/users/sign_in">
      <input type="hidden" name="authenticity_token" value={csrf} />
      <input type="hidden" name="return_to" value={returnTo} />
      <label for="user_login">Username or primary email</label>
      <input type="text" id="user_login" name="user[login]" value={login ?? ''} autocomplete="username" required autofocus />
      <label for="user_password">Password</label>
      <input type="password" id="user_password" name="user[password]" autocomplete="current-password" required />
      <div class="actions">
        <button type="submit" name="commit" value="sign_in">
          Sign in
        </button>
      </div>
    </form>
  </Layout>
);

signIn.get('/users/sign_in', async (c) => {
  const returnTo = safeReturnTo(c.req.query('return_to'));
  if (await pageUser(c)) return c.redirect(returnTo, 302);
  return c.html(<SignInPage csrf={signInCsrfToken(c)} returnTo={returnTo} />);
});

signIn.post('/users/sign_in', async (c) => {
  const form = await readForm(c);
  if (!(await signInCsrfOk(c, field(form, 'authenticity_token')))) {
    return c.html(<ErrorPage title="Forbidden" message="Your session has expired or the form is invalid. Please reload the page and try again." />, 403);
  }
  const returnTo = safeReturnTo(field(form, 'return_to'));
  const login = (field(form, 'user[login]') ?? field(form, 'login') ?? '').trim();
  const password = field(form, 'user[password]') ?? field(form, 'password') ?? '';
  const csrf = signInCsrfToken(c);
  if (!login || !password) return c.html(<SignInPage csrf={csrf} returnTo={returnTo} login={login} alert={INVALID_LOGIN} />, 401);
  let result;
  try {
    result = await checkPassword(c.var.ctx, clientIp(c), login, password);
  } catch (error) {
    if (isDomainError(error, 'rate_limited')) {
      c.header('Retry-After', String(error.problem.retryAfter));
      return c.html(<ErrorPage title="Too many requests" message="Too many sign-in attempts. Please wait a moment and try again." />, 429);
    }
    throw error;
  }
  if (!result.ok) return c.html(<SignInPage csrf={csrf} returnTo={returnTo} login={login} alert={INVALID_LOGIN} />, 401);
  // A fresh session id at every sign-in (no fixation): whatever session the browser had ends first.
  if (getCookie(c, SESSION_COOKIE)) await endSession(c);
  await startSession(c, result.user.id);
  return c.redirect(returnTo, 302);
});

signIn.post('/users/sign_out', async (c) => {
  const form = await readForm(c);
  const current = await pageUser(c);
  if (current && !(await sessionCsrfOk(c, current.session, form))) {
    return c.html(<ErrorPage title="Forbidden" message="Your session has expired or the form is invalid. Please reload the page and try again." />, 403);
  }
  await endSession(c);
  return c.redirect('/users/sign_in', 302);
});
