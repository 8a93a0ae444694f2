// functions/repositories/reads/submodule-links.ts: .gitmodules as GitLab 13.6's GitmodulesParser reads it, and
// SubmoduleHelper#submodule_links_for_url's [web, tree] for each of its branches, with the examples of
// spec/helpers/submodule_helper_spec.rb (pure: no app, no database).
import { describe, expect, it } from 'vitest';
import { instanceOf, parseGitmodules, sanitizeSubmoduleUrl, submoduleLinks, type Instance } from '../../functions/repositories/reads/submodule-links.ts';

const DEFAULT = instanceOf('http://gitlab.example.com');
const links = (url: string | null, projectPath = 'top-group/project', instance: Instance = DEFAULT) => {
  const { web, tree } = submoduleLinks({ id: 'hash', url, projectPath, instance });
  return [web, tree];
};
const self = (path: string, root = '') => [`${root}/${path}`, `${root}/${path}/-/tree/hash`];
const standard = (host: string, path = 'gitlab-org/gitlab-foss') => [`https://${host}/${path}`, `https://${host}/${path}/tree/hash`];

describe('instanceOf', () => {
  it('the public URL, its SSH clone prefix and its relative root', () => {
    expect(instanceOf('https://h.test:8443/gitlab/root')).toEqual({
      url: 'https://h.test:8443/gitlab/root',
      sshPathPrefix: 'git@h.test:',
      relativeRoot: '/gitlab/root',
    });
    expect(instanceOf('http://h.test').relativeRoot).toBe('');
  });
});

describe('submoduleLinks: a submodule on this instance (self_url?) links to route paths', () => {
  it.each([
    ['ssh, the clone URL', 'git@gitlab.example.com:gitlab-org/gitlab-foss.git', DEFAULT],
    ['http on the standard port', 'http://gitlab.example.com/gitlab-org/gitlab-foss.git', DEFAULT],
    ['without .git', 'http://gitlab.example.com/gitlab-org/gitlab-foss', DEFAULT],
    ['ssh without .git', 'git@gitlab.example.com:gitlab-org/gitlab-foss', DEFAULT],
    ['http on a non-standard port', 'http://gitlab.example.com:3000/gitlab-org/gitlab-foss.git', instanceOf('http://gitlab.example.com:3000')],
  ])('%s', (_name, url, instance) => {
    expect(links(url, 'top-group/project', instance)).toEqual(self('gitlab-org/gitlab-foss'));
  });

  it('under a relative URL root, the paths carry it; subgroups are part of the namespace', () => {
    const rooted = instanceOf('http://gitlab.example.com/gitlab/root');
    expect(links('http://gitlab.example.com/gitlab/root/gitlab-org/gitlab-foss.git', 'a/b', rooted)).toEqual(self('gitlab-org/gitlab-foss', '/gitlab/root'));
    expect(links('http://gitlab.example.com/gitlab/root/gitlab-org/sub/gitlab-foss.git', 'a/b', rooted)).toEqual(
      self('gitlab-org/sub/gitlab-foss', '/gitlab/root'),
    );
    expect(links('git@gitlab.example.com:gitlab-org/sub/gitlab-foss.git')).toEqual(self('gitlab-org/sub/gitlab-foss'));
  });

  it("'.' and './' are the repository itself", () => {
    expect(links('./', 'master-project/project')).toEqual(self('master-project/project'));
    expect(links('.', 'master-project/sub/project')).toEqual(self('master-project/sub/project'));
  });

  it('a path the project routes refuse draws no links', () => {
    expect(links('http://gitlab.example.com/group/project.atom.git')).toEqual([null, null]);
  });

  it('trailing whitespace makes it no self URL: the sanitizer refuses it', () => {
    expect(links('http://gitlab.example.com/gitlab-org/gitlab-foss.git ')).toEqual([null, null]);
  });
});

describe('submoduleLinks: github.com and gitlab.com (standard_links)', () => {
  it.each([
    ['github.com', 'git@github.com:gitlab-org/gitlab-foss.git'],
    ['github.com', 'http://github.com/gitlab-org/gitlab-foss.git'],
    ['github.com', 'https://github.com/gitlab-org/gitlab-foss.git'],
    ['github.com', 'http://github.com/gitlab-org/gitlab-foss'],
    ['gitlab.com', 'git@gitlab.com:gitlab-org/gitlab-foss.git'],
    ['gitlab.com', 'http://gitlab.com/gitlab-org/gitlab-foss.git'],
    ['gitlab.com', 'https://gitlab.com/gitlab-org/gitlab-foss.git'],
    ['gitlab.com', 'http://gitlab.com/gitlab-org/gitlab-foss'],
    ['gitlab.com', 'http://gitlab.com/gitlab-org/gitlab-foss.git  '],
  ])('%s: %s', (host, url) => {
    expect(links(url)).toEqual(standard(host));
  });

  it('a deeper path is no standard URL: the URL itself, no tree link', () => {
    expect(links('http://github.com/another/gitlab-org/gitlab-foss.git')).toEqual(['http://github.com/another/gitlab-org/gitlab-foss.git', null]);
    expect(links('http://gitlab.com/another/gitlab-org/gitlab-foss.git')).toEqual(['http://gitlab.com/another/gitlab-org/gitlab-foss.git', null]);
  });
});

describe('submoduleLinks: relative URLs resolve against the project (relative_self_links)', () => {
  it.each([
    ['a project under the same group', '../test.git', 'top-group/project', '/top-group/test'],
    ['trailing whitespace', '../test.git ', 'top-group/project', '/top-group/test'],
    ['a project under another top group', '../../baz/test.git ', 'top-group/project', '/baz/test'],
    ["an ancestor group's project, from a subgroup", '../../../top-group/test.git', 'top-group/sub-group/project', '/top-group/test'],
    ["a descendant group's project", '../sub-group/test.git', 'top-group/project', '/top-group/sub-group/test'],
    ["another top group's subgroup", '../../frontend/css/test.git', 'top-group/project', '/frontend/css/test'],
    ['another personal project', '../test.git', 'someone/project', '/someone/test'],
    ['without .git', '../test', 'top-group/project', '/top-group/test'],
  ])('%s', (_name, url, project, expected) => {
    expect(links(url, project)).toEqual([expected, `${expected}/-/tree/hash`]);
  });

  it.each([
    ['resolving to the root (no namespace)', '../../test.git'],
    ['resolving under the project itself', './test.git'],
    ["resolving under a path the project's is a prefix of (13.6 compares strings)", '../project-x/test.git'],
    ['a name the routes refuse (UrlGenerationError is rescued)', '../foo bar.git'],
  ])('no links: %s', (_name, url) => {
    expect(links(url, 'top-group/project')).toEqual([null, null]);
  });
});

describe('submoduleLinks: anything else is the sanitized URL with no tree link', () => {
  it.each([
    ['http://mygitserver.com/gitlab-org/gitlab-foss', 'http://mygitserver.com/gitlab-org/gitlab-foss'],
    ['git://mygitserver.com/gitlab-org/gitlab-foss.git', 'git://mygitserver.com/gitlab-org/gitlab-foss.git'],
    ['ssh://git@mygitserver.com:2222/gitlab-org/gitlab-foss.git', 'ssh://git@mygitserver.com:2222/gitlab-org/gitlab-foss.git'],
  ])('%s', (url, expected) => {
    expect(links(url)).toEqual([expected, null]);
  });

  it.each([
    ['an unsupported protocol', 'javascript:alert("XSS");'],
    ['an unsupported protocol disguised as a repository URL', 'javascript:alert("XSS");foo/bar.git'],
    ['an invalid URL with extended ASCII', 'é'],
    ["an scp-like URL (no URI to Ruby's parser)", 'git@mygitserver.com:gitlab-org/gitlab-foss.git'],
    ['ftp', 'ftp://mygitserver.com/gitlab-org/gitlab-foss.git'],
    ['no slash at all', 'foo'],
  ])('both null: %s', (_name, url) => {
    expect(links(url)).toEqual([null, null]);
  });

  it('an unknown submodule (no url in .gitmodules, or no .gitmodules) has no links', () => {
    expect(links(null)).toEqual([null, null]);
  });
});

describe('sanitizeSubmoduleUrl: URI.parse(url).to_s', () => {
  it.each([
    ['HTTPS://Example.com/a/b.git', 'https://Example.com/a/b.git'],
    ['http://example.com:80/a/b', 'http://example.com/a/b'],
    ['https://example.com:443/a/b', 'https://example.com/a/b'],
    ['https://example.com:8443/a/b', 'https://example.com:8443/a/b'],
    ['http://example.com:/a', 'http://example.com/a'],
    ['ssh://git@example.com:022/a', 'ssh://git@example.com:22/a'],
    ['http://@example.com/a', 'http://example.com/a'],
    ['http://u:p@example.com/a?x=1#top', 'http://u:p@example.com/a?x=1#top'],
    ['http://[::1]:8080/a', 'http://[::1]:8080/a'],
    ['git:relative/path', 'git:relative/path'],
  ])('%s -> %s', (url, expected) => {
    expect(sanitizeSubmoduleUrl(url)).toBe(expected);
  });

  it.each([
    'http://example.com/a b',
    'http://exa mple.com/',
    'http://example.com/\u00e9',
    'http://example.com/a#b#c',
    'http://exa%zzmple.com/',
    '../relative.git',
  ])('null: %s', (url) => {
    expect(sanitizeSubmoduleUrl(url)).toBeNull();
  });
});

describe('parseGitmodules', () => {
  it('sections by path with their url; values kept to the end of the line', () => {
    const text = [
      '# a comment',
      '[submodule "one"]',
      '\tpath = libs/one',
      '\turl = https://example.com/one.git  ',
      '[submodule "two"]',
      '  path=two',
      '  url="quoted"',
      '',
    ].join('\n');
    expect([...parseGitmodules(text)]).toEqual([
      ['libs/one', 'https://example.com/one.git  '],
      ['two', '"quoted"'],
    ]);
  });

  it('CRLF line ends, comments with leading spaces, `;` is no comment, keys are case-sensitive', () => {
    const text = '[submodule "a"]\r\n  # url = commented\r\n\tpath = a\r\n\tURL = upper\r\n; url = semicolon\r\n\turl = lower\r\n';
    expect(parseGitmodules(text).get('a')).toBe('lower');
    expect(parseGitmodules('[submodule "a"]\n\tpath = a\n; url = x\n').get('a')).toBeUndefined();
  });

  it('a repeated header accumulates; a section without a path is dropped; one path twice: the later wins', () => {
    const text = [
      '[submodule "a"]',
      'path = a',
      '[submodule "nopath"]',
      'url = https://example.com/nopath.git',
      '[submodule "a"]',
      'url = https://example.com/a.git',
      '[submodule "b"]',
      'path = a',
      'url = https://example.com/b.git',
    ].join('\n');
    expect([...parseGitmodules(text)]).toEqual([['a', 'https://example.com/b.git']]);
  });

  it('headers must be exact; lines before any section and lines that are no `key = value` are ignored', () => {
    const text = [
      'path = before',
      'url = before',
      ' [submodule "spaced"]',
      '[submodule "ok"] # trailing',
      '[submodule ""]',
      '[submodule "x"]',
      'path = x',
      'not a pair',
      'url = https://example.com/x.git',
    ].join('\n');
    expect([...parseGitmodules(text)]).toEqual([['x', 'https://example.com/x.git']]);
  });

  it('a section with a path and no url maps to undefined (no links)', () => {
    expect(parseGitmodules('[submodule "a"]\npath = a\n').has('a')).toBe(true);
    expect(parseGitmodules('[submodule "a"]\npath = a\n').get('a')).toBeUndefined();
  });
});
