// GET /templates/{gitignores,gitlab_ci_ymls,dockerfiles}[/:name] (GitLab 13.6 lib/api/templates.rb,
// Gitlab::Template::*): lists by category then name, lookups by name, GitLab's 404s, and the same data through
// `templateContent` (what `include: template:` reads).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { templateContent } from '../../../functions/templates/catalog.ts';
import { DOCKERFILES } from '../../../functions/templates/data/dockerfiles.ts';
import { GITIGNORES } from '../../../functions/templates/data/gitignores.ts';
import { GITLAB_CI_YMLS } from '../../../functions/templates/data/gitlab-ci-ymls.ts';
import { api } from '../../helpers/app.ts';
import { CI_TEMPLATE_NAMES, DOCKERFILE_NAMES, GITIGNORE_NAMES } from './names-13-6.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createUser } from '../../factories/users.ts';

const NOT_FOUND_ROUTE = { status: 404, body: { error: '404 Not Found' } };
const listed = (...names: string[]) => names.map((name) => ({ key: name, name }));

describeAuthorization('GET /templates/gitignores/:name', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/templates/gitignores/Node', { token }),
  success: 200,
  anonymous: { status: 200 },
});

describe('lists', () => {
  it.each([
    // Languages, then Global; by name within each (uppercase before lowercase, as Ruby compares).
    ['gitignores', listed(...GITIGNORE_NAMES)],
    // General, then Pages; Security/ is no listed category.
    ['gitlab_ci_ymls', listed(...CI_TEMPLATE_NAMES)],
    ['dockerfiles', listed(...DOCKERFILE_NAMES)],
  ])('%s', async (type, expected) => {
    const res = await api.get(`/templates/${type}`, { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe(String(expected.length));
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('100');
    const all = [...res.body];
    for (let page = 2; page <= Number(res.headers.get('x-total-pages')); page++) {
      all.push(...(await api.get(`/templates/${type}`, { query: { per_page: 100, page } })).body);
    }
    expect(all).toEqual(expected);
  });

  it('paginates', async () => {
    const res = await api.get('/templates/gitignores', { query: { per_page: 4, page: 2 } });
    expect(res.body).toEqual(listed(...GITIGNORE_NAMES.slice(4, 8)));
    expect(res.headers.get('x-total')).toBe(String(GITIGNORE_NAMES.length));
    expect(res.headers.get('x-total-pages')).toBe(String(Math.ceil(GITIGNORE_NAMES.length / 4)));
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(res.headers.get('link')).toContain('/api/v4/templates/gitignores?per_page=4&page=3>; rel="next"');
    expect(await api.get('/templates/dockerfiles', { query: { per_page: '0' } })).toMatchObject({
      status: 400,
      body: { error: 'per_page does not have a valid value' },
    });
  });
});

describe('one template', () => {
  it.each([
    ['gitignores', 'Node', 'Node', GITIGNORES.Node],
    ['gitignores', 'macOS', 'macOS', GITIGNORES['Global/macOS']],
    ['gitlab_ci_ymls', 'Go', 'Go', GITLAB_CI_YMLS.Go],
    ['gitlab_ci_ymls', 'HTML', 'HTML', GITLAB_CI_YMLS['Pages/HTML']],
    // GitlabCiYmlTemplate.include_categories_for_file: SAST is found by name though not listed.
    ['gitlab_ci_ymls', 'SAST', 'SAST', GITLAB_CI_YMLS['Security/SAST']],
    ['dockerfiles', 'Golang', 'Golang', DOCKERFILES.Golang],
  ])('%s/%s', async (type, name, expectedName, content) => {
    const res = await api.get(`/templates/${type}/${name}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: expectedName, content });
  });

  it.each([
    ['gitignores', 'node', '404 gitignore Not Found'],
    ['gitignores', 'Global', '404 gitignore Not Found'],
    ['gitignores', 'constructor', '404 gitignore Not Found'],
    ['gitignores', '__proto__', '404 gitignore Not Found'],
    ['gitlab_ci_ymls', 'Security', '404 gitlab_ci_yml Not Found'],
    ['gitlab_ci_ymls', 'DAST.gitlab-ci.yml', '404 gitlab_ci_yml Not Found'],
    ['dockerfiles', 'Haskell', '404 dockerfile Not Found'],
  ])('%s/%s: 404', async (type, name, message) => {
    expect(await api.get(`/templates/${type}/${name}`)).toMatchObject({ status: 404, body: { message } });
  });

  it('names outside [\\w.-] and unknown types match no route', async () => {
    for (const path of [
      '/templates/gitignores/C++',
      '/templates/gitlab_ci_ymls/Security%2FSAST',
      '/templates/issues',
      '/templates/issues/Bug',
      '/templates/Gitignores/Node',
    ]) {
      expect(await api.get(path)).toMatchObject(NOT_FOUND_ROUTE);
    }
  });
});

describe('the CI templates', () => {
  it("are YAML mappings that start with GitLab's template notice", () => {
    for (const [name, content] of Object.entries(GITLAB_CI_YMLS)) {
      expect(content, name).toMatch(/^# This file is a template, and might need editing before it works on your project\.\n/);
      const doc = parse(content);
      expect(typeof doc, name).toBe('object');
    }
  });

  it("SAST and DAST define GitLab's `sast` and `dast` jobs with their reports", () => {
    const sast = parse(GITLAB_CI_YMLS['Security/SAST']!);
    expect(sast.sast).toMatchObject({ stage: 'test', artifacts: { reports: { sast: 'gl-sast-report.json' } } });
    const dast = parse(GITLAB_CI_YMLS.DAST!);
    expect(dast.dast).toMatchObject({ stage: 'dast', artifacts: { reports: { dast: 'gl-dast-report.json' } } });
    expect(dast.dast.script).toContain('export DAST_WEBSITE=${DAST_WEBSITE:-$(cat environment_url.txt)}');
  });

  it('templateContent reads the same data as the API, by path under the template root', async () => {
    const api_ = await api.get('/templates/gitlab_ci_ymls/SAST');
    expect(await templateContent('gitlab_ci_ymls', 'Security/SAST')).toBe(api_.body.content);
    expect(await templateContent('gitlab_ci_ymls', 'DAST')).toBe(GITLAB_CI_YMLS.DAST);
    expect(await templateContent('gitignores', 'Global/macOS')).toBe(GITIGNORES['Global/macOS']);
    for (const missing of ['Security/Nope', '../DAST', 'toString', '']) expect(await templateContent('gitlab_ci_ymls', missing)).toBeNull();
  });
});
