// The pages' one stylesheet, served from our origin so the CSP needs no 'unsafe-inline' (style-src 'self').
import type { Context } from 'hono';

export const STYLESHEET_PATH = '/-/pages.css';

const STYLESHEET = `
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

export const serveStylesheet = (c: Context) => c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
