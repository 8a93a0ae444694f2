// `rules:exists` (GitLab 13.6 Build::Rules::Rule::Clause::Exists): a job is created when one of its globs names a
// file of the pipeline's commit, matched as File.fnmatch? with PATHNAME | DOTMATCH | EXTGLOB; the commit's tree is
// read once, bounded; a pathological glob costs linear time.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { commitFiles } from './support.ts';

const job = (name: string, globs: string[]) => [`${name}:`, '  script: [echo]', '  rules:', `    - exists: ${JSON.stringify(globs)}`].join('\n');

const YAML = [
  'always:\n  script: [echo]',
  job('docker', ['Dockerfile']),
  job('ruby', ['**/*.rb']),
  job('top_ruby', ['*.rb']),
  job('braces', ['{web,app}/package.json']),
  job('class', ['config/[12].yml']),
  job('dotfile', ['.*rc']),
  job('comma', ['Dockerfile,Gemfile']),
  job('unbalanced', ['src/{a']),
  job('missing', ['nothing/**/*.go', 'Makefile']),
  job('deep', [`${'**/'.repeat(10)}x`]),
].join('\n');

async function pipelineJobs(files: Record<string, string>) {
  const owner = await createUser();
  const project = await createProject(owner.token);
  await commitFiles(owner.token, project.id, { '.gitlab-ci.yml': YAML, ...files });
  const [pipeline] = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
  expect(pipeline).toBeDefined();
  const jobs = await api.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`, { token: owner.token, query: { per_page: 100 } });
  expect(jobs.status).toBe(200);
  return (jobs.body as Array<{ name: string }>).map((j) => j.name).sort();
}

describe('rules:exists', () => {
  it("matches the globs against the commit's files", async () => {
    const deep = `${Array.from({ length: 30 }, (_, i) => `d${i}`).join('/')}/y`;
    const names = await pipelineJobs({
      Dockerfile: 'FROM x',
      'lib/a/b.rb': '',
      'app/package.json': '{}',
      'config/2.yml': '',
      '.eslintrc': '',
      'src/{a': '',
      [deep]: '',
    });
    expect(names).toEqual(['always', 'braces', 'class', 'docker', 'dotfile', 'ruby']);
  });

  it('creates none of them when no file matches (a directory is not a file)', async () => {
    const names = await pipelineJobs({ 'README.md': '', 'Dockerfile/inside.txt': '', 'config/3.yml': '', 'top.rb': '' });
    expect(names).toEqual(['always', 'ruby', 'top_ruby']);
  });
});
