// parseCiConfig on invalid files: GitLab 13.6's messages (Entry::* validations, YamlProcessor, Extendable,
// External::Mapper), one table row per rule.
import { describe, expect, it } from 'vitest';
import { parseCiConfig } from '../../../functions/ci/config/index.ts';
import { templateContent } from '../../../functions/templates/catalog.ts';

const templates = (name: string) => templateContent('gitlab_ci_ymls', name);
const errorsOf = async (text: string) => {
  const r = await parseCiConfig(text, { templates });
  return r.ok ? [] : r.errors;
};

describe('invalid configurations', () => {
  it.each([
    ['empty', '', 'Please provide content of .gitlab-ci.yml'],
    ['only a comment (loads as nil)', '# nothing\n', 'Invalid configuration format'],
    ['a string root', 'just text', 'Invalid configuration format'],
    ['a list root', '- a\n- b\n', 'Invalid configuration format'],
    ['no visible job', '.hidden:\n  script: x\n', 'jobs config should contain at least one visible job'],
    ['a job without script', 'a:\n  script: x\nrspec:\n  stage: test\n', 'jobs rspec config should implement a script: or a trigger: keyword'],
    ['an unknown root key (a job that is not one)', 'foo: bar\nrspec:\n  script: x\n', 'jobs foo config should implement a script: or a trigger: keyword'],
    ['unknown job keys', 'rspec:\n  script: x\n  foo: 1\n  bar: 2\n', 'jobs:rspec config contains unknown keys: foo, bar'],
    [
      'a missing stage',
      'rspec:\n  stage: lint\n  script: x\n',
      'rspec job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post',
    ],
    ['stages not a list', 'stages: build\nrspec:\n  script: x\n', 'stages config should be an array of strings'],
    ['variables not a hash', 'variables: [a]\nrspec:\n  script: x\n', 'variables config should be a hash of key value pairs'],
    ['job variables nested', 'rspec:\n  script: x\n  variables:\n    A: {b: 1}\n', 'jobs:rspec:variables config should be a hash of key value pairs'],
    [
      'before_script a string',
      'before_script: bundle update\nrspec:\n  script: x\n',
      'before_script config should be an array containing strings and arrays of strings',
    ],
    [
      'job after_script nested twice',
      'rspec:\n  script: x\n  after_script: [[ls, [pwd]], test]\n',
      'jobs:rspec:after_script config should be an array containing strings and arrays of strings',
    ],
    ['script a hash', 'rspec:\n  script: {a: 1}\n', 'jobs:rspec:script config should be a string or a nested array of strings up to 10 levels deep'],
    ['bad when', 'rspec:\n  script: x\n  when: later\n', 'jobs:rspec when should be one of: on_success, on_failure, always, manual or delayed'],
    ['delayed without start_in', 'rspec:\n  script: x\n  when: delayed\n', "jobs:rspec start in can't be blank"],
    ['delayed with a bad start_in', 'rspec:\n  script: x\n  when: delayed\n  start_in: soon\n', 'jobs:rspec start in should be a duration'],
    ['delayed over a week', 'rspec:\n  script: x\n  when: delayed\n  start_in: 2 weeks\n', 'jobs:rspec start in should not exceed the limit'],
    ['start_in without delayed', 'rspec:\n  script: x\n  start_in: 1 minute\n', 'jobs:rspec start in must be blank'],
    ['allow_failure not boolean', 'rspec:\n  script: x\n  allow_failure: maybe\n', 'jobs:rspec allow failure should be a boolean value'],
    ['tags not strings', 'rspec:\n  script: x\n  tags: [{a: 1}]\n', 'jobs:rspec:tags config should be an array of strings'],
    ['rules with only', 'rspec:\n  script: x\n  rules: [{when: always}]\n  only: [master]\n', 'jobs:rspec config key may not be used with `rules`: only'],
    [
      'rules with when and except',
      'rspec:\n  script: x\n  when: manual\n  except: [a]\n  rules: [{when: always}]\n',
      'jobs:rspec config key may not be used with `rules`: when, except',
    ],
    ['rules not hashes', 'rspec:\n  script: x\n  rules: [a]\n', 'jobs:rspec rules should be an array of hashes'],
    ['a rule with a bad if', 'rspec:\n  script: x\n  rules:\n    - if: $A = "b"\n', 'jobs:rspec:rules:rule if invalid expression syntax'],
    [
      'a rule with an unknown key',
      'rspec:\n  script: x\n  rules:\n    - if: $A\n      unless: $B\n',
      'jobs:rspec:rules:rule config contains unknown keys: unless',
    ],
    ['a rule with a bad when', 'rspec:\n  script: x\n  rules:\n    - when: sometimes\n', 'jobs:rspec:rules:rule when unknown value: sometimes'],
    ['only with bad variables', 'rspec:\n  script: x\n  only:\n    variables: [$A ==]\n', 'jobs:rspec:only variables invalid expression syntax'],
    ['only with unknown keys', 'rspec:\n  script: x\n  except:\n    branch: [a]\n', 'jobs:rspec:except config contains unknown keys: branch'],
    ['an undefined need', 'rspec:\n  script: x\n  needs: [build]\n', 'rspec job: undefined need: build'],
    ['a need in the same stage', 'a:\n  script: x\nb:\n  script: x\n  needs: [a]\n', 'b job: need a is not defined in prior stages'],
    ['a need in a later stage', 'a:\n  stage: build\n  script: x\n  needs: [b]\nb:\n  script: x\n', 'a job: need b is not defined in prior stages'],
    ['an undefined dependency', 'rspec:\n  script: x\n  dependencies: [build]\n', 'rspec job: undefined dependency: build'],
    [
      'a dependency in a later stage',
      'a:\n  stage: build\n  script: x\n  dependencies: [b]\nb:\n  script: x\n',
      'a job: dependency b is not defined in prior stages',
    ],
    ['extends an unknown job', 'rspec:\n  extends: .base\n  script: x\n', 'rspec: unknown keys in `extends` (.base)'],
    ['extends unknown jobs', 'rspec:\n  extends: [.a, .b]\n  script: x\n', 'rspec: unknown keys in `extends` (.a, .b)'],
    ['extends a loop', '.a:\n  extends: .b\n.b:\n  extends: .a\nrspec:\n  extends: .a\n  script: x\n', '.a: circular dependency detected in `extends`'],
    ['extends non-hashes', '.a: [1]\n.b: x\nrspec:\n  extends: [.a, .b]\n  script: x\n', 'rspec: invalid base hashes in `extends` (.a, .b)'],
    [
      'an unknown template',
      'include:\n  template: Nope.gitlab-ci.yml\nrspec:\n  script: x\n',
      'Included file `Nope.gitlab-ci.yml` is empty or does not exist!',
    ],
    ['a template without the suffix', 'include:\n  template: Bash\nrspec:\n  script: x\n', 'Template file `Bash` is not a valid location!'],
    ['a local include without project', 'include: ci/jobs.yml\nrspec:\n  script: x\n', 'Local file `ci/jobs.yml` does not have project!'],
    [
      'a remote include',
      'include: https://example.com/ci.yml\nrspec:\n  script: x\n',
      'Remote file `https://example.com/ci.yml` cannot be included: remote includes are not supported',
    ],
    ['a default with unknown keys', 'default:\n  stage: x\nrspec:\n  script: x\n', 'default config contains unknown keys: stage'],
    ['a workflow rule with manual', 'workflow:\n  rules:\n    - when: manual\nrspec:\n  script: x\n', 'workflow:rules:rule when unknown value: manual'],
    ['parallel too small', 'rspec:\n  script: x\n  parallel: 1\n', 'jobs:rspec:parallel config must be greater than or equal to 2'],
  ])('%s', async (_name, text, message) => {
    expect(await errorsOf(text)).toEqual([message]);
  });

  it('a local include reads the project files (a missing one is an error)', async () => {
    const local = async (path: string) => (path === 'ci/jobs.yml' ? 'lint:\n  script: [x]\n' : null);
    const ok = await parseCiConfig('include:\n  local: /ci/jobs.yml\nrspec:\n  script: x\n', { templates, local });
    expect(ok.ok && ok.config.jobs.map((j) => j.name)).toEqual(['lint', 'rspec']);
    const missing = await parseCiConfig('include:\n  local: ci.yml\nrspec:\n  script: x\n', { templates, local });
    expect(missing).toEqual({ ok: false, errors: ['Local file `ci.yml` does not exist!'], warnings: [] });
  });

  it('extends deeper than 10 levels is nesting too deep', async () => {
    const bases = Array.from({ length: 12 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join('') + '.l12:\n  script: x\n';
    // Keys are extended in file order: .l0 first, so .l11 is the first with more than 10 ancestors.
    expect(await errorsOf(`${bases}rspec:\n  extends: .l0\n`)).toEqual(['.l11: nesting too deep in `extends`']);
    const ten = Array.from({ length: 10 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join('') + '.l10:\n  script: x\n';
    expect(await errorsOf(`${ten}rspec:\n  extends: .l0\n`)).toEqual([]);
  });

  it('a file whose only job lacks a script has no visible job either', async () => {
    expect(await errorsOf('rubocop:\n  stage: test\n')).toEqual([
      'jobs rubocop config should implement a script: or a trigger: keyword',
      'jobs config should contain at least one visible job',
    ]);
  });

  it('collects every entry error in document order', async () => {
    expect(await errorsOf('a:\n  script: x\n  when: later\nb:\n  script: x\n  foo: 1\n')).toEqual([
      'jobs:a when should be one of: on_success, on_failure, always, manual or delayed',
      'jobs:b config contains unknown keys: foo',
    ]);
  });

  // Psych's wording is libyaml's; the yaml package words its own problems, in Psych's frame with its position.
  it.each([
    ['a bad indentation', 'a:\n  b: 1\n c: 2\n', '(<unknown>): all mapping items must start at the same column at line 3 column 1'],
    ['a compact nested mapping', 'a: b: c\n', '(<unknown>): nested mappings are not allowed in compact mappings at line 1 column 4'],
    ['an unknown alias', 'a: *x\n', '(<unknown>): unresolved alias (the anchor must be set before the alias): x'],
  ])('YAML syntax: %s', async (_name, text, message) => {
    expect(await errorsOf(text)).toEqual([message]);
  });
});
