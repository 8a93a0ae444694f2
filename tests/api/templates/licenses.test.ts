// GET /templates/licenses[/:name] (GitLab 13.6 lib/api/templates.rb, API::Entities::License): choosealicense's
// metadata with spdx-license-list's texts, GitLab's placeholder filling, `popular`, pagination, 404s.
import { describe, expect, it } from 'vitest';
import mitText from 'spdx-license-list/licenses/MIT.json';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createUser } from '../../factories/users.ts';

const KEYS = [
  'agpl-3.0',
  'apache-2.0',
  'bsd-2-clause',
  'bsd-3-clause',
  'bsl-1.0',
  'cc0-1.0',
  'epl-2.0',
  'gpl-2.0',
  'gpl-3.0',
  'lgpl-2.1',
  'mit',
  'mpl-2.0',
  'unlicense',
];
const POPULAR = ['apache-2.0', 'gpl-3.0', 'mit'];
const year = () => String(new Date().getUTCFullYear());
const NOT_FOUND_ROUTE = { status: 404, body: { error: '404 Not Found' } };

const MIT_META = {
  key: 'mit',
  name: 'MIT License',
  nickname: null,
  html_url: 'http://choosealicense.com/licenses/mit/',
  source_url: 'https://spdx.org/licenses/MIT.html',
  popular: true,
  description:
    'A short and simple permissive license with conditions only requiring preservation of copyright and license notices. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
  conditions: ['include-copyright'],
  permissions: ['commercial-use', 'modifications', 'distribution', 'private-use'],
  limitations: ['liability', 'warranty'],
};
/** MIT's text with its copyright line as `line`. */
const mitWith = (line: string) => mitText.licenseText.replace('Copyright (c) <year> <copyright holders>', () => line);

describeAuthorization('GET /templates/licenses', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/templates/licenses', { token }),
  success: 200,
  anonymous: { status: 200 },
});

describe('GET /templates/licenses', () => {
  it('lists the 13 licenses by key, each with its metadata and unfilled text, with pagination headers', async () => {
    const res = await api.get('/templates/licenses');
    expect(res.status).toBe(200);
    expect(res.body.map((l: { key: string }) => l.key)).toEqual(KEYS);
    expect(res.body.find((l: { key: string }) => l.key === 'mit')).toEqual({ ...MIT_META, content: mitWith('Copyright (c) [year] [fullname]') });
    for (const l of res.body) {
      expect(Object.keys(l)).toEqual([
        'key',
        'name',
        'nickname',
        'html_url',
        'source_url',
        'popular',
        'description',
        'conditions',
        'permissions',
        'limitations',
        'content',
      ]);
      expect(l.html_url).toBe(`http://choosealicense.com/licenses/${l.key}/`);
      expect(l.popular).toBe(POPULAR.includes(l.key));
      expect(l.content.length).toBeGreaterThan(500);
    }
    expect(res.body.find((l: { key: string }) => l.key === 'gpl-3.0')).toMatchObject({
      name: 'GNU General Public License v3.0',
      nickname: 'GNU GPLv3',
      source_url: 'https://spdx.org/licenses/GPL-3.0.html',
    });
    expect(res.headers.get('x-total')).toBe('13');
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('20');
    expect(res.headers.get('x-total-pages')).toBe('1');
  });

  it('paginates', async () => {
    const res = await api.get('/templates/licenses', { query: { per_page: 5, page: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { key: string }) => l.key)).toEqual(KEYS.slice(10));
    expect(res.headers.get('x-total')).toBe('13');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('');
    expect(res.headers.get('link')).toContain('/api/v4/templates/licenses?per_page=5&page=2>; rel="prev"');
  });

  it('popular=true (or 1) lists the featured ones, popular=false the others', async () => {
    for (const popular of ['true', '1', 'yes']) {
      const res = await api.get('/templates/licenses', { query: { popular } });
      expect(res.status).toBe(200);
      expect(res.body.map((l: { key: string }) => l.key)).toEqual(POPULAR);
      expect(res.headers.get('x-total')).toBe('3');
    }
    const others = await api.get('/templates/licenses', { query: { popular: 'false' } });
    expect(others.body.map((l: { key: string }) => l.key)).toEqual(KEYS.filter((k) => !POPULAR.includes(k)));
  });

  it.each([
    [{ popular: 'maybe' }, 'popular is invalid'],
    [{ per_page: '0' }, 'per_page does not have a valid value'],
    [{ page: 'x' }, 'page is invalid'],
  ])('400 for %j', async (query, error) => {
    expect(await api.get('/templates/licenses', { query })).toMatchObject({ status: 400, body: { error } });
  });
});

describe('GET /templates/licenses/:name', () => {
  it('fills the year, the project and the copyright holder (MIT: the whole entity)', async () => {
    const res = await api.get('/templates/licenses/mit', { query: { project: 'My Awesome Project', fullname: 'Anton MIT' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...MIT_META, content: mitWith(`Copyright (c) ${year()} Anton MIT`) });
  });

  // GitLab's spec/requests/api/templates_spec.rb, for the licenses it checks, plus the texts whose SPDX placeholders
  // are rewritten (GNU v2, BSD).
  it.each([
    ['agpl-3.0', 'GNU AFFERO GENERAL PUBLIC LICENSE', `Copyright (C) ${year()}  Anton AGPL-3.0`, true],
    ['gpl-3.0', 'GNU GENERAL PUBLIC LICENSE', `Copyright (C) ${year()}  Anton GPL-3.0`, true],
    ['gpl-2.0', 'GNU GENERAL PUBLIC LICENSE', `Copyright (C) ${year()}  Anton GPL-2.0`, true],
    ['lgpl-2.1', 'GNU LESSER GENERAL PUBLIC LICENSE', `Copyright (C) ${year()}  Anton LGPL-2.1`, true],
    ['apache-2.0', 'Apache License', `Copyright ${year()} Anton APACHE-2.0`, false],
    ['bsd-2-clause', 'Redistribution and use in source and binary forms', `Copyright (c) ${year()} Anton BSD-2-CLAUSE`, false],
    ['bsd-3-clause', 'Redistribution and use in source and binary forms', `Copyright (c) ${year()} Anton BSD-3-CLAUSE`, false],
  ])('%s', async (key, title, copyright, hasProject) => {
    const res = await api.get(`/templates/licenses/${key}`, { query: { project: 'My Awesome Project', fullname: `Anton ${key.toUpperCase()}` } });
    expect(res.status).toBe(200);
    expect(res.body.key).toBe(key);
    expect(res.body.content).toContain(title);
    expect(res.body.content).toContain(copyright);
    expect(res.body.content.includes('My Awesome Project')).toBe(hasProject);
    expect(res.body.content).not.toMatch(/[<[](year|yyyy|fullname|name of author|name of copyright owner)[>\]]/i);
  });

  it("without fullname uses the signed-in user's name; anonymous leaves the placeholder", async () => {
    const { user, token } = await createUser();
    const signedIn = await api.get('/templates/licenses/mit', { token });
    expect(signedIn.body.content).toBe(mitWith(`Copyright (c) ${year()} ${user.name}`));
    const blank = await api.get('/templates/licenses/mit', { token, query: { fullname: '   ', project: ' ' } });
    expect(blank.body.content).toBe(mitWith(`Copyright (c) ${year()} ${user.name}`));
    const anonymous = await api.get('/templates/licenses/mit');
    expect(anonymous.body.content).toBe(mitWith(`Copyright (c) ${year()} [fullname]`));
  });

  it('inserts the values literally', async () => {
    const res = await api.get('/templates/licenses/mit', { query: { fullname: 'A $& B $1 \\0' } });
    expect(res.body.content).toBe(mitWith(`Copyright (c) ${year()} A $& B $1 \\0`));
  });

  it('404 License Not Found for an unknown key, keys are case-sensitive', async () => {
    for (const name of ['muth-over9000', 'MIT', 'constructor', '__proto__', 'mit.json']) {
      expect(await api.get(`/templates/licenses/${name}`)).toMatchObject({ status: 404, body: { message: '404 License Not Found' } });
    }
  });

  it('a name outside [\\w.-] matches no route', async () => {
    expect(await api.get('/templates/licenses/mit%20x')).toMatchObject(NOT_FOUND_ROUTE);
    expect(await api.get('/templates/licenses/a+b')).toMatchObject(NOT_FOUND_ROUTE);
  });

  it('a bad token is 401 here too', async () => {
    expect(await api.get('/templates/licenses/mit', { token: 'glpat-not-a-real-token' })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});

describe('the paths API v4 removed', () => {
  it.each(['/licenses', '/licenses/mit', '/gitignores', '/gitignores/Node', '/gitlab_ci_ymls', '/gitlab_ci_ymls/Go', '/dockerfiles', '/dockerfiles/Node'])(
    '%s is 404',
    async (path) => {
      expect(await api.get(path)).toMatchObject(NOT_FOUND_ROUTE);
    },
  );
});
