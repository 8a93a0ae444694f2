// Where a submodule links to (GraphQL Submodule.webUrl and treeUrl), as GitLab 13.6 computes it: the url
// `.gitmodules` gives the entry's path (Gitlab::Git::GitmodulesParser, Repository#submodule_urls_for), mapped by
// SubmoduleHelper#submodule_links_for_url to [web, tree]. Pure: the reads verb supplies the file's text.

/** The instance as the helper sees it: Gitlab.config.gitlab.url and gitlab_shell.ssh_path_prefix. */
export interface Instance {
  /** The public URL, relative root included, no trailing slash. */
  url: string;
  /** `git@host:`, what an SSH clone URL starts with (projects' ssh_url_to_repo). */
  sshPathPrefix: string;
  /** The URL's path (`/gitlab`, or ''), which route paths start with (relative_url_root). */
  relativeRoot: string;
}

export const instanceOf = (publicUrl: string): Instance => {
  const url = new URL(publicUrl);
  return { url: publicUrl, sshPathPrefix: `git@${url.hostname}:`, relativeRoot: url.pathname.replace(/\/+$/, '') };
};

export interface SubmoduleLinks {
  web: string | null;
  tree: string | null;
}

const NONE: SubmoduleLinks = { web: null, tree: null };

// Ruby's \s and String#rstrip's set, not JS's (which adds Unicode spaces).
const RUBY_SPACE = '[ \\t\\r\\n\\f\\v]';
const rstrip = (s: string) => s.replace(/[\0\t\n\v\f\r ]+$/, '');

/**
 * GitmodulesParser#parse then `transform_values { url }`: path -> url (undefined when the section has no `url`).
 * Line by line: `#` comments, headers exactly `[submodule "name"]` (a repeated name accumulates), `key = value`
 * lines inside a section with the value kept to the line's end (trailing spaces included: the helper strips them
 * where it matters). Keys are case-sensitive and `;` starts no comment, as in that parser. A section without a
 * `path` is dropped; two sections with one path: the later one wins.
 */
export function parseGitmodules(text: string): Map<string, string | undefined> {
  const byName = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  const header = /^\[submodule "([^"]+)"\]$/;
  const comment = new RegExp(`^${RUBY_SPACE}*#`);
  const pair = new RegExp(`^${RUBY_SPACE}*(\\w+)${RUBY_SPACE}*=${RUBY_SPACE}*(.*)$`, 's');
  for (const raw of text.split('\n')) {
    // String#chomp after split("\n"): a CR ending the line goes.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (comment.test(line)) continue;
    const section = header.exec(line);
    if (section) {
      const name = section[1]!;
      current = byName.get(name) ?? new Map();
      byName.set(name, current);
      continue;
    }
    const kv = current && pair.exec(line);
    if (kv) current!.set(kv[1]!, kv[2]!);
  }
  const byPath = new Map<string, string | undefined>();
  for (const attrs of byName.values()) {
    const path = attrs.get('path');
    if (path !== undefined) byPath.set(path, attrs.get('url'));
  }
  return byPath;
}

/** `s.rpartition('/')`'s first and last parts. */
const rpartition = (s: string): [string, string] => {
  const at = s.lastIndexOf('/');
  return at < 0 ? ['', s] : [s.slice(0, at), s.slice(at + 1)];
};

/**
 * submodule_links_for_url(id, url, repository) for a project at `projectPath`: links within this instance are route
 * paths (namespace_project_path, namespace_project_tree_path: no host), github.com and gitlab.com ones full URLs,
 * anything else the URL itself when its scheme is http, https, git or ssh, with no tree link.
 */
export function submoduleLinks(a: { id: string; url: string | null | undefined; projectPath: string; instance: Instance }): SubmoduleLinks {
  let url = a.url;
  if (url === null || url === undefined) return NONE;
  // The repository itself (File.join with the instance URL).
  if (url === '.' || url === './') url = `${a.instance.url}/${a.projectPath}`;

  const tail = /([^/:]+)\/([^/]+)$/.exec(url);
  if (!tail) return { web: sanitizeSubmoduleUrl(url), tree: null };
  let namespace = tail[1]!;
  let project = tail[2]!;
  // On this instance the namespace is everything between the host and the last slash (subgroups included).
  const host = [a.instance.url, a.instance.sshPathPrefix].find((h) => url!.startsWith(h));
  if (host !== undefined) [namespace, project] = rpartition(url.slice(host.length));
  namespace = namespace.replace(/^\//, '');
  project = rstrip(project).replace(/\.git$/, '');

  if (isSelfUrl(url, namespace, project, a.instance)) return projectLinks(a.instance, namespace, project, a.id);
  if (url.startsWith('../') || url.startsWith('./')) return relativeSelfLinks(url, a.id, a.projectPath, a.instance);
  if (/github\.com[/:][^/]+\/[^/]+$/.test(url)) return standardLinks('github.com', namespace, project, a.id);
  if (/gitlab\.com[/:][^/]+\/[^/]+$/.test(url)) return standardLinks('gitlab.com', namespace, project, a.id);
  return { web: sanitizeSubmoduleUrl(url), tree: null };
}

/** self_url?: the project's HTTP(S) URL on this instance (`.git` or not), or its SSH clone URL. */
function isSelfUrl(url: string, namespace: string, project: string, instance: Instance): boolean {
  const bare = url.endsWith('.git') ? url.slice(0, -4) : url;
  if (bare === `${instance.url}/${namespace}/${project}`) return true;
  return `${bare}.git` === `${instance.sshPathPrefix}${namespace}/${project}.git`;
}

/** standard_links: GitHub's and GitLab.com's project page and `/tree/<sha>` (13.6 writes no `/-/` for either). */
function standardLinks(host: string, namespace: string, project: string, id: string): SubmoduleLinks {
  const base = `https://${host}/${namespace}/${project}`;
  return { web: base, tree: `${base}/tree/${id}` };
}

/**
 * relative_self_links: the url resolved against the project's own path as a directory (File.absolute_path:
 * `../p2.git` from `/g1/p1` is `/g1/p2`). Nothing when that lands at the root (no namespace) or inside the project
 * itself (a repository cannot sit in another), nor when the route cannot be drawn (UrlGenerationError).
 */
function relativeSelfLinks(relative: string, id: string, projectPath: string, instance: Instance): SubmoduleLinks {
  const base = `/${projectPath}`;
  const resolved = absolutePath(rstrip(relative), base);
  const dir = resolved.slice(0, resolved.lastIndexOf('/')) || '/';
  if (dir === '/' || dir.startsWith(base)) return NONE;
  const name = resolved.slice(resolved.lastIndexOf('/') + 1);
  // File.basename(path, '.git') keeps a name that is nothing but the suffix.
  const project = name.endsWith('.git') && name !== '.git' ? name.slice(0, -4) : name;
  return projectLinks(instance, dir.slice(1), project, id);
}

/** File.absolute_path(path, dir) for a relative `path`: `.` and `..` resolved, empty segments dropped, never above `/`. */
function absolutePath(path: string, dir: string): string {
  const out: string[] = [];
  for (const segment of `${dir}/${path}`.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

// Gitlab::PathRegex's formats, which the project routes require of their segments (reserved words aside).
const NAMESPACE_SEGMENT = '(?:[a-zA-Z0-9_.][a-zA-Z0-9_\\-.]*[a-zA-Z0-9_\\-]|[a-zA-Z0-9_])(?<!\\.git|\\.atom)';
const FULL_NAMESPACE = new RegExp(`^(?:${NAMESPACE_SEGMENT}/){0,20}${NAMESPACE_SEGMENT}$`);
const PROJECT_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*(?<!\.git|\.atom)$/;

/**
 * namespace_project_path and namespace_project_tree_path. A segment the routes refuse makes Rails raise; the
 * relative branch rescues that into no links, the self branch does not (13.6 fails the request): no links either.
 */
function projectLinks(instance: Instance, namespace: string, project: string, id: string): SubmoduleLinks {
  if (!FULL_NAMESPACE.test(namespace) || !PROJECT_PATH.test(project)) return NONE;
  const web = `${instance.relativeRoot}/${namespace}/${project}`;
  return { web, tree: `${web}/-/tree/${id}` };
}

// ---- sanitize_submodule_url: URI.parse (Ruby's RFC 3986 parser) and its to_s, for http, https, git and ssh ----

const VALID_SUBMODULE_PROTOCOLS = ['http', 'https', 'git', 'ssh'];
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

const PCT = '%[0-9A-Fa-f]{2}';
const SEGMENT = `(?:${PCT}|[!$&-.0-;=@-Z_a-z~])*`;
const SEGMENT_NZ = `(?:${PCT}|[!$&-.0-;=@-Z_a-z~])+`;
// Ruby's grammar, in its order: scheme, then an authority with an absolute-or-empty path, or a path without one;
// the query takes anything but `#` (Ruby is lenient there), the fragment is strict. IP literals are checked for
// their characters only.
const RFC3986_URI = new RegExp(
  '^([A-Za-z][+\\-.0-9A-Za-z]*):' +
    '(?:' +
    `//(?:((?:${PCT}|[!$&-.0-;=A-Z_a-z~])*)@)?` +
    `(\\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\\.[!$&-.0-;=A-Z_a-z~]+)\\]|(?:${PCT}|[!$&-.0-9;=A-Z_a-z~])*)` +
    '(?::(\\d*))?' +
    `((?:/${SEGMENT})*)` +
    `|(/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?)` +
    `|(${SEGMENT_NZ}(?:/${SEGMENT})*)` +
    '|()' +
    ')' +
    '(?:\\?([^#]*))?' +
    `(?:#((?:${PCT}|[!$&-.0-;=@-Z_a-z~/?])*))?$`,
);

/**
 * The URL as URI#to_s writes it back when its scheme is allowed, else null (so is a URL Ruby cannot parse:
 * spaces, non-ASCII, scp-like `user@host:path`). to_s lower-cases the scheme, drops a default port (80, 443) or
 * an empty one, and an empty userinfo's `@`; the rest is the text as given.
 */
export function sanitizeSubmoduleUrl(url: string): string | null {
  const m = RFC3986_URI.exec(url);
  if (!m) return null;
  const [, rawScheme, userinfo, host, port, pathAbempty, pathAbsolute, pathRootless, pathEmpty, query, fragment] = m;
  const scheme = rawScheme!.toLowerCase();
  if (!VALID_SUBMODULE_PROTOCOLS.includes(scheme)) return null;
  let out = `${scheme}:`;
  if (pathAbempty !== undefined) {
    out += '//';
    if (userinfo) out += `${userinfo}@`;
    out += host ?? '';
    const number = port ? Number(port) : undefined;
    if (number !== undefined && number !== DEFAULT_PORTS[scheme]) out += `:${number}`;
    out += pathAbempty;
  } else {
    out += pathAbsolute ?? pathRootless ?? pathEmpty ?? '';
  }
  if (query !== undefined) out += `?${query}`;
  if (fragment !== undefined) out += `#${fragment}`;
  return out;
}
