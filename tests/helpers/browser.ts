// A browser stand-in for page tests: keeps cookies between in-process requests (Set-Cookie in, Cookie out), sends
// forms, and reads CSRF tokens and hidden fields out of the HTML. Each browser has its own client IP so the
// per-IP sign-in limit of one test never spills into another.
import { hashPassword } from '../../functions/lib/crypto.ts';
import { createUser, unique, type UserOptions } from '../factories/users.ts';
import { request, TEST_PUBLIC_URL, type TestResponse } from './app.ts';

let ipCounter = 0;
type HeaderValues = Record<string, string | undefined>;

export class Browser {
  readonly cookies = new Map<string, string>();
  readonly ip = `198.51.100.${(ipCounter++ % 250) + 1}-${unique('ip')}`;

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string> | [string, string][]; headers?: HeaderValues } = {},
  ): Promise<TestResponse> {
    // A form POST from one of our own pages carries what a browser sends with it; a test that sets Origin or
    // Sec-Fetch-Site itself (undefined: absent) describes the whole browsing context (another site, an old browser).
    const own = options.headers && ('origin' in options.headers || 'sec-fetch-site' in options.headers);
    const site = method !== 'GET' && !own ? { origin: TEST_PUBLIC_URL, 'sec-fetch-site': 'same-origin' } : {};
    const headers: Record<string, string> = { 'cf-connecting-ip': this.ip };
    for (const [k, v] of Object.entries({ ...site, ...options.headers })) if (v !== undefined) headers[k] = v;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    // Repeated fields (checkbox groups) go as [name, value] pairs: request() hands them to URLSearchParams as is.
    const form = options.form as Record<string, string> | undefined;
    const res = await request(method, path, { headers, ...(form ? { form } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get = (path: string, headers?: HeaderValues) => this.request('GET', path, headers ? { headers } : {});
  post = (path: string, form: Record<string, string> | [string, string][], headers?: HeaderValues) =>
    this.request('POST', path, { form, ...(headers ? { headers } : {}) });

  /** Signs in through the page (GET for the form's token, then POST). */
  async signIn(login: string, password: string, returnTo?: string) {
    const page = await this.get(`/users/sign_in${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
    return this.post('/users/sign_in', {
      authenticity_token: csrfToken(page.text),
      'user[login]': login,
      'user[password]': password,
      return_to: hiddenField(page.text, 'return_to') ?? '',
    });
  }
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The value of the first hidden input with this name. */
export function hiddenField(html: string, name: string): string | undefined {
  const re = new RegExp(`<input type="hidden" name="${name.replace(/[[\]]/g, '\\$&')}" value="([^"]*)"`);
  const m = re.exec(html);
  return m ? unescapeHtml(m[1]!) : undefined;
}

export function csrfToken(html: string): string {
  const token = hiddenField(html, 'authenticity_token');
  if (!token) throw new Error('no authenticity_token in page');
  return token;
}

/** The hidden fields of the form posting to `action`. */
export function formFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const body = html.slice(start, html.indexOf('</form>', start));
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) out[m[1]!] = unescapeHtml(m[2]!);
  return out;
}

export const PASSWORD = 'correct horse battery staple';
let passwordHash: Promise<string> | undefined;

/** A user who can sign in with PASSWORD (the hash is computed once per test file). */
export async function createUserWithPassword(options: UserOptions = {}) {
  passwordHash ??= hashPassword(PASSWORD);
  return createUser({ ...options, passwordHash: await passwordHash });
}

/** A signed-in browser for a new user. */
export async function signedIn(options: UserOptions = {}) {
  const { user, token } = await createUserWithPassword(options);
  const browser = new Browser();
  const res = await browser.signIn(user.username, PASSWORD);
  if (res.status !== 302) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 300)}`);
  return { browser, user, token };
}
