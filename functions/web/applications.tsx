// /oauth/applications: the signed-in user's OAuth applications (list, create, show, renew secret, delete), and
// /oauth/authorized_applications: what the user has granted, with Revoke. The secret is shown once, when created or
// renewed; only its digest is stored.
import { Hono, type Context } from 'hono';
import type { OAuthApplicationRow } from '../../db/schema/index.ts';
import * as applications from '../applications/service.ts';
import type { AppEnv } from '../lib/context.ts';
import { isDomainError } from '../lib/errors.ts';
import { bool } from '../lib/validate.ts';
import { OAUTH_SCOPE_NAMES, OAUTH_SCOPES } from '../oauth/scopes.ts';
import { ErrorPage, Flash, Layout } from './layout.tsx';
import { field, pageUser, readForm, sessionCsrfOk, type PageUser } from './security.ts';

export const applicationPages = new Hono<AppEnv>();

const FIELD_LABELS: Record<string, string> = { name: 'Name', redirect_uri: 'Redirect URI', scopes: 'Scopes', confidential: 'Confidential' };

type FormValues = { name: string; redirectUri: string; confidential: boolean; scopes: string[] };
const EMPTY_FORM: FormValues = { name: '', redirectUri: '', confidential: true, scopes: [] };

const layoutUser = (u: PageUser) => ({ username: u.user.username, csrf: u.csrf });

const ApplicationForm = ({ csrf, values, errors }: { csrf: string; values: FormValues; errors?: Record<string, string[]> | undefined }) => (
  <form method="post" action="/oauth/applications">
    <h2>Add new application</h2>
    {errors ? (
      <div class="flash alert" role="alert">
        <p>The form contains the following errors:</p>
        <ul>{Object.entries(errors).flatMap(([k, messages]) => messages.map((m) => <li>{`${FIELD_LABELS[k] ?? k} ${m}`}</li>))}</ul>
      </div>
    ) : null}
    <input type="hidden" name="authenticity_token" value={csrf} />
    <label for="doorkeeper_application_name">Name</label>
    <input type="text" id="doorkeeper_application_name" name="doorkeeper_application[name]" value={values.name} required />
    <label for="doorkeeper_application_redirect_uri">Redirect URI</label>
    <textarea id="doorkeeper_application_redirect_uri" name="doorkeeper_application[redirect_uri]" rows={3} required>
      {values.redirectUri}
    </textarea>
    <small>Use one line per URI</small>
    <div class="scope">
      <input type="checkbox" id="doorkeeper_application_confidential" name="doorkeeper_application[confidential]" value="1" checked={values.confidential} />
      <label for="doorkeeper_application_confidential">Confidential</label>
      <small>
        The application will be used where the client secret can be kept confidential. Native mobile apps and Single Page Apps are considered non-confidential.
      </small>
    </div>
    <fieldset>
      <legend>Scopes</legend>
      {OAUTH_SCOPE_NAMES.map((scope) => (
        <div class="scope">
          <input
            type="checkbox"
            id={`doorkeeper_application_scopes_${scope}`}
            name="doorkeeper_application[scopes][]"
            value={scope}
            checked={values.scopes.includes(scope)}
          />
          <label for={`doorkeeper_application_scopes_${scope}`}>{scope}</label>
          <small>{OAUTH_SCOPES[scope]}</small>
        </div>
      ))}
    </fieldset>
    <div class="actions">
      <button type="submit">Save application</button>
    </div>
  </form>
);

const ListPage = ({
  u,
  apps,
  values,
  errors,
  notice,
}: {
  u: PageUser;
  apps: OAuthApplicationRow[];
  values?: FormValues;
  errors?: Record<string, string[]>;
  notice?: string | undefined;
}) => (
  <Layout title="Applications" user={layoutUser(u)}>
    <h1>Applications</h1>
    <Flash notice={notice} />
    <p>Manage applications that can use GitLab as an OAuth provider.</p>
    <h2>Your applications ({apps.length})</h2>
    {apps.length ? (
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Callback URL</th>
            <th>Clients</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr id={`application_${a.id}`}>
              <td>
                <a href={`/oauth/applications/${a.id}`}>{a.name}</a>
              </td>
              <td>
                {a.redirectUris.map((uri) => (
                  <div>
                    <code>{uri}</code>
                  </div>
                ))}
              </td>
              <td>{a.confidential ? 'Confidential' : 'Public'}</td>
              <td>
                <form method="post" action={`/oauth/applications/${a.id}/delete`}>
                  <input type="hidden" name="authenticity_token" value={u.csrf} />
                  <button type="submit">Destroy</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p>You don't have any applications.</p>
    )}
    <ApplicationForm csrf={u.csrf} values={values ?? EMPTY_FORM} errors={errors} />
  </Layout>
);

const ShowPage = ({ u, app, secret, notice }: { u: PageUser; app: OAuthApplicationRow; secret?: string | undefined; notice?: string | undefined }) => (
  <Layout title={`Application: ${app.name}`} user={layoutUser(u)}>
    <h1>Application: {app.name}</h1>
    <Flash notice={notice} />
    <table>
      <tbody>
        <tr>
          <th>Application ID</th>
          <td>
            <code id="application_id">{app.uid}</code>
          </td>
        </tr>
        <tr>
          <th>Secret</th>
          <td>
            {secret ? (
              <>
                <code id="secret">{secret}</code>
                <p>
                  <strong>This is the only time the secret is accessible.</strong> Copy the secret and store it securely.
                </p>
              </>
            ) : (
              <span>The secret is only available when you create the application or renew the secret.</span>
            )}
          </td>
        </tr>
        <tr>
          <th>Callback URL</th>
          <td>
            {app.redirectUris.map((uri) => (
              <div>
                <code>{uri}</code>
              </div>
            ))}
          </td>
        </tr>
        <tr>
          <th>Confidential</th>
          <td>{app.confidential ? 'Yes' : 'No'}</td>
        </tr>
        <tr>
          <th>Scopes</th>
          <td>
            <ul>
              {app.scopes.map((s) => (
                <li>
                  <strong>{s}</strong> {OAUTH_SCOPES[s as keyof typeof OAUTH_SCOPES] ?? ''}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      </tbody>
    </table>
    <div class="actions">
      <form method="post" action={`/oauth/applications/${app.id}/renew`}>
        <input type="hidden" name="authenticity_token" value={u.csrf} />
        <button type="submit">Renew secret</button>
      </form>
      <form method="post" action={`/oauth/applications/${app.id}/delete`}>
        <input type="hidden" name="authenticity_token" value={u.csrf} />
        <button type="submit">Destroy</button>
      </form>
      <a href="/oauth/applications">Back to applications</a>
    </div>
  </Layout>
);

const forbiddenPage = (c: Context<AppEnv>) =>
  c.html(<ErrorPage title="Forbidden" message="Your session has expired or the form is invalid. Please reload the page and try again." />, 403);
const notFoundPage = (c: Context<AppEnv>, u: PageUser) =>
  c.html(<ErrorPage title="Not found" message="The application could not be found." user={layoutUser(u)} />, 404);
const toSignIn = (c: Context<AppEnv>, returnTo: string) => c.redirect(`/users/sign_in?return_to=${encodeURIComponent(returnTo)}`, 302);
const idParam = (raw: string) => (/^\d{1,9}$/.test(raw) ? Number(raw) : null);

/** Runs `fn` with the signed-in user (and, for POSTs, the verified form); signs in first, 403 on a bad CSRF token. */
async function withUser(c: Context<AppEnv>, returnTo: string, fn: (u: PageUser, form: Record<string, string | string[]>) => Promise<Response>) {
  const u = await pageUser(c);
  if (!u) return toSignIn(c, returnTo);
  let form: Record<string, string | string[]> = {};
  if (c.req.method === 'POST') {
    form = await readForm(c);
    if (!(await sessionCsrfOk(c, u.session, form))) return forbiddenPage(c);
  }
  try {
    return await fn(u, form);
  } catch (error) {
    if (isDomainError(error, 'not_found')) return notFoundPage(c, u);
    throw error;
  }
}

applicationPages.get('/oauth/applications', (c) =>
  withUser(c, '/oauth/applications', async (u) => c.html(<ListPage u={u} apps={await applications.listOwnApplications(c.var.ctx, u.user.id)} />)),
);

applicationPages.post('/oauth/applications', (c) =>
  withUser(c, '/oauth/applications', async (u, form) => {
    const scopes = form['doorkeeper_application[scopes][]'];
    // The API's boolean rule (lib/validate.ts); an unchecked box sends nothing, which is false.
    const confidential = bool().safeParse(field(form, 'doorkeeper_application[confidential]') ?? false);
    const values: FormValues = {
      name: field(form, 'doorkeeper_application[name]') ?? '',
      redirectUri: field(form, 'doorkeeper_application[redirect_uri]') ?? '',
      confidential: confidential.data ?? EMPTY_FORM.confidential,
      scopes: scopes === undefined ? [] : Array.isArray(scopes) ? scopes : [scopes],
    };
    const checked = applications.applicationErrors(values);
    const errors = confidential.success ? checked.errors : { ...checked.errors, confidential: ['is invalid'] };
    if (errors) {
      const apps = await applications.listOwnApplications(c.var.ctx, u.user.id);
      return c.html(<ListPage u={u} apps={apps} values={values} errors={errors} />, 400);
    }
    const { row, secret } = await applications.registerApplication(c.var.ctx, values, u.user.id);
    return c.html(<ShowPage u={u} app={row} secret={secret} notice="The application was created successfully." />, 201);
  }),
);

applicationPages.get('/oauth/applications/:id', (c) =>
  withUser(c, c.req.path, async (u) => {
    const id = idParam(c.req.param('id'));
    if (id === null) return notFoundPage(c, u);
    return c.html(<ShowPage u={u} app={await applications.findOwnApplication(c.var.ctx, u.user.id, id)} />);
  }),
);

applicationPages.post('/oauth/applications/:id/renew', (c) =>
  withUser(c, '/oauth/applications', async (u) => {
    const id = idParam(c.req.param('id'));
    if (id === null) return notFoundPage(c, u);
    const { row, secret } = await applications.renewSecret(c.var.ctx, u.user.id, id);
    return c.html(<ShowPage u={u} app={row} secret={secret} notice="Application secret was successfully updated." />);
  }),
);

applicationPages.post('/oauth/applications/:id/delete', (c) =>
  withUser(c, '/oauth/applications', async (u) => {
    const id = idParam(c.req.param('id'));
    if (id === null) return notFoundPage(c, u);
    await applications.deleteOwnApplication(c.var.ctx, u.user.id, id);
    const apps = await applications.listOwnApplications(c.var.ctx, u.user.id);
    return c.html(<ListPage u={u} apps={apps} notice="The application was deleted successfully." />);
  }),
);

// ---- Authorized applications ----

const AuthorizedPage = ({
  u,
  apps,
  notice,
}: {
  u: PageUser;
  apps: Awaited<ReturnType<typeof applications.listAuthorizedApplications>>;
  notice?: string | undefined;
}) => (
  <Layout title="Authorized applications" user={layoutUser(u)}>
    <h1>Authorized applications</h1>
    <Flash notice={notice} />
    {apps.length ? (
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Authorized at</th>
            <th>Scope</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr id={`authorized_application_${a.id}`}>
              <td>{a.name}</td>
              <td>{a.authorizedAt.toISOString()}</td>
              <td>{a.scopes.join(', ')}</td>
              <td>
                <form method="post" action={`/oauth/authorized_applications/${a.id}/revoke`}>
                  <input type="hidden" name="authenticity_token" value={u.csrf} />
                  <button type="submit">Revoke</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p>You don't have any authorized applications.</p>
    )}
  </Layout>
);

applicationPages.get('/oauth/authorized_applications', (c) =>
  withUser(c, '/oauth/authorized_applications', async (u) =>
    c.html(<AuthorizedPage u={u} apps={await applications.listAuthorizedApplications(c.var.ctx, u.user.id)} />),
  ),
);

applicationPages.post('/oauth/authorized_applications/:id/revoke', (c) =>
  withUser(c, '/oauth/authorized_applications', async (u) => {
    const id = idParam(c.req.param('id'));
    if (id !== null) await applications.revokeAuthorizedApplication(c.var.ctx, u.user.id, id);
    const apps = await applications.listAuthorizedApplications(c.var.ctx, u.user.id);
    return c.html(<AuthorizedPage u={u} apps={apps} notice="The application was revoked access." />);
  }),
);
