// The templates API through real clients, unmodified, against a served instance: @gitbeaker/rest's
// LicenseTemplates / GitignoreTemplates / GitLabCIYMLTemplates / DockerfileTemplates, and python-gitlab's
// gl.licenses / gl.gitignores / gl.gitlabciymls / gl.dockerfiles (skipped where python3-gitlab is not installed).
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { CI_TEMPLATE_NAMES, DOCKERFILE_NAMES, GITIGNORE_NAMES } from '../api/templates/names-13-6.ts';

const PYTHON = '/usr/bin/python3';
const pythonGitlab = spawnSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' }).status === 0;
const year = String(new Date().getUTCFullYear());

describe('templates through API clients', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('@gitbeaker/rest: gitignores (every page), CI templates, Dockerfiles', async () => {
    const { token } = await createUser();
    const gl = new Gitlab({ host: server.url, token });
    // (gitbeaker's LicenseTemplates asks for `templates/Licenses`, which GitLab's case-sensitive router does not
    // serve either: licenses are checked through python-gitlab below.)
    const gitignores = await gl.GitignoreTemplates.all({ perPage: 40 });
    expect(gitignores.map((t) => t.name)).toEqual(GITIGNORE_NAMES);
    expect((await gl.GitignoreTemplates.show('Node')).content).toContain('node_modules/');
    expect((await gl.GitLabCIYMLTemplates.show('SAST')).content).toContain('sast:');
    expect((await gl.DockerfileTemplates.all()).map((t) => t.key)).toEqual(DOCKERFILE_NAMES);
    await expect(gl.DockerfileTemplates.show('Nope')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it.skipIf(!pythonGitlab)('python-gitlab: licenses with placeholders filled, gitignores, CI templates, Dockerfiles', async () => {
    const { token } = await createUser();
    const script = `import json, sys, gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
mit = gl.licenses.get('mit', project='Widget', fullname='Jane Doe')
print(json.dumps({
  'licenses': [l.key for l in gl.licenses.list(all=True)],
  'mit': mit.content.splitlines()[2],
  'gitignore': gl.gitignores.get('Python').name,
  'ci': [t.name for t in gl.gitlabciymls.list(all=True)],
  'dockerfile': gl.dockerfiles.get('Golang').content.splitlines()[1],
}))`;
    const { stdout } = await promisify(execFile)(PYTHON, ['-c', script, server.url, token], { encoding: 'utf8', timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.licenses).toHaveLength(13);
    expect(out.mit).toBe(`Copyright (c) ${year} Jane Doe`);
    expect(out.gitignore).toBe('Python');
    expect(out.ci).toEqual(CI_TEMPLATE_NAMES);
    expect(out.dockerfile).toBe('FROM golang:1.15-alpine AS build');
  });
});
