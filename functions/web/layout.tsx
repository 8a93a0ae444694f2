// The shared page layout and the small pieces every page uses (flash messages, error pages). Plain HTML forms,
// no client script and no inline style: the CSP allows neither (the stylesheet is served from stylesheet.ts).
import type { Child } from 'hono/jsx';
import { STYLESHEET_PATH } from './stylesheet.ts';

export interface LayoutProps {
  title: string;
  /** The signed-in user's username, with the CSRF token for the sign-out form. */
  user?: { username: string; csrf: string } | undefined;
  children?: Child;
}

export const Layout = ({ title, user, children }: LayoutProps) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>{title} · GitLab</title>
      <link rel="stylesheet" href={STYLESHEET_PATH} />
    </head>
    <body>
      <header>
        <strong>GitLab</strong>
        {user ? (
          <>
            <a href="/oauth/applications">Applications</a>
            <a href="/oauth/authorized_applications">Authorized applications</a>
            <form method="post" action="/users/sign_out">
              <input type="hidden" name="authenticity_token" value={user.csrf} />
              <span>{user.username} </span>
              <button type="submit">Sign out</button>
            </form>
          </>
        ) : null}
      </header>
      <main>{children}</main>
    </body>
  </html>
);

export const Flash = ({ alert, notice }: { alert?: string | undefined; notice?: string | undefined }) => (
  <>
    {alert ? (
      <div class="flash alert" role="alert">
        {alert}
      </div>
    ) : null}
    {notice ? (
      <div class="flash notice" role="status">
        {notice}
      </div>
    ) : null}
  </>
);

/** A full error page (never a redirect): invalid clients, CSRF failures, rate limits. */
export const ErrorPage = ({ title, message, user }: { title: string; message: string; user?: LayoutProps['user'] }) => (
  <Layout title={title} user={user}>
    <h1>{title}</h1>
    <p class="flash alert">{message}</p>
  </Layout>
);
