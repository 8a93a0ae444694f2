// The shared page layout and the small pieces every page uses (flash messages, error pages). Plain HTML forms,
// no client script: the CSP allows none.
import type { Child } from 'hono/jsx';

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#292961;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1rem;align-items:center}
header a{color:#fff}header form{margin-left:auto}
main{max-width:46rem;margin:1.5rem auto;padding:0 1rem}
.flash{padding:.6rem .9rem;border-radius:4px;margin-bottom:1rem}
.flash.alert{background:#fdd;border:1px solid #c33}.flash.notice{background:#dfd;border:1px solid #3a3}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}input[type=text],input[type=password],textarea{width:100%;box-sizing:border-box;padding:.4rem}
.scope{margin:.3rem 0}.scope label{display:inline;font-weight:600}.scope small{display:block;margin-left:1.6rem;color:#555}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
code{word-break:break-all}.actions{display:flex;gap:.6rem;margin-top:1rem}button{padding:.4rem .9rem}
`;

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
      <style>{STYLE}</style>
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
    {alert ? <div class="flash alert" role="alert">{alert}</div> : null}
    {notice ? <div class="flash notice" role="status">{notice}</div> : null}
  </>
);

/** A full error page (never a redirect): invalid clients, CSRF failures, rate limits. */
export const ErrorPage = ({ title, message, user }: { title: string; message: string; user?: LayoutProps['user'] }) => (
  <Layout title={title} user={user}>
    <h1>{title}</h1>
    <p class="flash alert">{message}</p>
  </Layout>
);
