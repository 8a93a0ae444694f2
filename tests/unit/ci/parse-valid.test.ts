// parseCiConfig on valid files: the normalized jobs (defaults, globals, extends, anchors, include: template) and
// the merged YAML GitLab's lint shows.
import { describe, expect, it } from 'vitest';
import { parseCiConfig, type CiConfig } from '../../../functions/ci/config/index.ts';
import { mergedYaml } from '../../../functions/ci/config/merged-yaml.ts';
import { templateContent } from '../../../functions/templates/catalog.ts';

const templates = (name: string) => templateContent('gitlab_ci_ymls', name);
async function parse(text: string): Promise<CiConfig> {
  const r = await parseCiConfig(text, { templates });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.config;
}
const job = (c: CiConfig, name: string) => c.jobs.find((j) => j.name === name)!;

describe('valid configurations', () => {
  it('applies GitLab defaults: stages, stage test, when on_success, hidden jobs ignored', async () => {
    const c = await parse('.hidden:\n  script: x\nrspec:\n  script: bundle exec rspec\n');
    expect(c.stages).toEqual(['.pre', 'build', 'test', 'deploy', '.post']);
    expect(c.jobs.map((j) => j.name)).toEqual(['rspec']);
    expect(job(c, 'rspec')).toMatchObject({ stage: 'test', script: ['bundle exec rspec'], when: 'on_success', allowFailure: false, needs: null, tags: [] });
  });

  it.each([
    ['stages with .pre/.post kept at the ends', 'stages: [lint, .post, build]\na:\n  stage: lint\n  script: x\n', ['.pre', 'lint', 'build', '.post']],
    ['types, the old name of stages', 'types: [one, two]\na:\n  stage: one\n  script: x\n', ['.pre', 'one', 'two', '.post']],
  ])('%s', async (_n, text, stages) => {
    expect((await parse(text)).stages).toEqual(stages);
  });

  it('reads globals, default: and inherit:', async () => {
    const c = await parse(
      [
        'image: ruby:2.7',
        'variables: {A: "1", N: 2}',
        'before_script: [setup]',
        'default:',
        '  image: ruby:3.0',
        '  tags: [docker]',
        'a:',
        '  script: x',
        '  variables: {B: b}',
        'b:',
        '  script: y',
        '  inherit:',
        '    default: false',
        '    variables: [N]',
      ].join('\n'),
    );
    expect(c.variables).toEqual({ A: '1', N: '2' });
    expect(job(c, 'a')).toMatchObject({ image: 'ruby:3.0', beforeScript: ['setup'], tags: ['docker'], variables: { A: '1', N: '2', B: 'b' } });
    expect(job(c, 'b')).toMatchObject({ image: null, beforeScript: null, tags: [], variables: { N: '2' } });
  });

  it('flattens nested script arrays and makes manual jobs allowed to fail', async () => {
    const c = await parse('a:\n  script: [one, [two, three]]\n  when: manual\nb:\n  script: x\n  when: delayed\n  start_in: 30 minutes\n');
    expect(job(c, 'a')).toMatchObject({ script: ['one', 'two', 'three'], when: 'manual', allowFailure: true });
    expect(job(c, 'b')).toMatchObject({ when: 'delayed', startIn: '30 minutes', allowFailure: false });
  });

  it('extends: multi-level, arrays of bases, hashes merged and arrays replaced, the job winning', async () => {
    const c = await parse(
      [
        '.base:',
        '  image: alpine',
        '  variables: {A: base, B: base}',
        '  tags: [one, two]',
        '.middle:',
        '  extends: .base',
        '  variables: {B: middle}',
        '.other:',
        '  tags: [three]',
        'rspec:',
        '  extends: [.middle, .other]',
        '  variables: {C: job}',
        '  script: x',
      ].join('\n'),
    );
    expect(job(c, 'rspec')).toMatchObject({ image: 'alpine', variables: { A: 'base', B: 'middle', C: 'job' }, tags: ['three'] });
  });

  it('anchors, aliases and merge keys', async () => {
    const c = await parse('.defaults: &defaults\n  image: node\n  tags: [x]\nlint:\n  <<: *defaults\n  script: npm run lint\n  tags: [y]\n');
    expect(job(c, 'lint')).toMatchObject({ image: 'node', tags: ['y'], script: ['npm run lint'] });
  });

  it('needs and dependencies of earlier stages', async () => {
    const c = await parse(
      'build:\n  stage: build\n  script: x\ntest:\n  script: y\n  needs: [build, {job: build, artifacts: false}]\n  dependencies: [build]\n',
    );
    expect(job(c, 'test')).toMatchObject({
      needs: [
        { name: 'build', artifacts: true },
        { name: 'build', artifacts: false },
      ],
      dependencies: ['build'],
    });
  });

  it('include: template merges the template under the file (the file wins)', async () => {
    const c = await parse('include:\n  - template: Bash.gitlab-ci.yml\nshellcheck:\n  script: [echo mine]\n');
    expect(await templateContent('gitlab_ci_ymls', 'Bash')).toContain('shellcheck:');
    // The template's image and stages stay; the file's script replaces the template's.
    expect(c.stages).toEqual(['.pre', 'test', '.post']);
    expect(job(c, 'shellcheck')).toMatchObject({ stage: 'test', image: 'koalaman/shellcheck-alpine:stable', script: ['echo mine'] });
    expect(c.jobs.map((j) => j.name)).toEqual(['shellcheck', 'run-tests']);
  });

  it('include: template of the Security templates by their path', async () => {
    const c = await parse('include:\n  template: Security/SAST.gitlab-ci.yml\n');
    expect(c.jobs.map((j) => j.name)).toContain('sast');
  });

  it('merged YAML is Ruby-style: symbol keys, document marker, extends applied', async () => {
    const c = await parse('.b:\n  tags: [t]\nrspec:\n  extends: .b\n  script: [x]\n');
    expect(mergedYaml(c.merged)).toBe('---\n:.b:\n  :tags:\n  - t\n:rspec:\n  :tags:\n  - t\n  :extends: .b\n  :script:\n  - x\n');
  });
});

describe('every listed .gitlab-ci.yml template', () => {
  it('is a valid configuration on its own (DAST, meant to be included beside a dast stage, with one)', async () => {
    const { listTemplates } = await import('../../../functions/templates/catalog.ts');
    const names = (await listTemplates('gitlab_ci_ymls')).map((t) => t.name);
    expect(names.length).toBeGreaterThanOrEqual(59);
    const invalid: string[] = [];
    for (const name of names) {
      const text = name === 'DAST' ? `stages: [build, test, deploy, dast]\ninclude:\n  template: DAST.gitlab-ci.yml\n` : (await templates(name))!;
      const r = await parseCiConfig(text, { templates });
      if (!r.ok) invalid.push(`${name}: ${r.errors.join('; ')}`);
    }
    expect(invalid).toEqual([]);
  });
});
