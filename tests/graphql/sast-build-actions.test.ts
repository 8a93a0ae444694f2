// The pure rules behind configureSast: SastBuildActions' file (which settings are written, merged into an existing
// configuration, dumped as Psych would) and Repository#next_branch's numbering.
import { describe, expect, it } from 'vitest';
import { sastBuildActions } from '../../functions/sast/build-actions.ts';
import { nextBranch } from '../../functions/sast/service.ts';

const COMMENT_LINES = 4;
const body = (content: string) => content.split('\n').slice(COMMENT_LINES).join('\n');
const entity = (field: string, defaultValue: string, value = defaultValue) => ({ field, defaultValue, value });

describe('sastBuildActions', () => {
  it('creates a minimal file when nothing differs from the defaults', () => {
    const action = sastBuildActions(
      { global: [entity('SAST_ANALYZER_IMAGE_TAG', '2')], pipeline: [entity('stage', 'test')], analyzers: [{ name: 'gosec', enabled: true }] },
      undefined,
    );
    expect(action.action).toBe('create');
    expect(action.filePath).toBe('.gitlab-ci.yml');
    expect(body(action.content)).toBe(`stages:
- test
sast:
  stage: test
include:
- template: Security/SAST.gitlab-ci.yml
`);
  });

  it('quotes what YAML 1.1 would read as another type, as Ruby does', () => {
    const action = sastBuildActions(
      {
        global: [entity('SECURE_ANALYZERS_PREFIX', 'a', 'yes'), entity('SAST_EXCLUDED_PATHS', 'a', '1:20')],
        pipeline: [entity('SEARCH_MAX_DEPTH', '4', '10')],
      },
      undefined,
    );
    expect(body(action.content)).toBe(`stages:
- test
variables:
  SECURE_ANALYZERS_PREFIX: 'yes'
sast:
  variables:
    SAST_EXCLUDED_PATHS: '1:20'
    SEARCH_MAX_DEPTH: '10'
  stage: test
include:
- template: Security/SAST.gitlab-ci.yml
`);
  });

  it('without global entries GitLab reads no variable at all (its REST-era shortcut)', () => {
    const action = sastBuildActions({ pipeline: [entity('SEARCH_MAX_DEPTH', '4', '10')], analyzers: [{ name: 'gosec', enabled: false }] }, undefined);
    expect(body(action.content)).not.toContain('variables');
  });

  it('merges into an existing file: stages kept first, the sast job kept but its variables replaced, includes deduplicated', () => {
    const existing = {
      stages: ['build', 'test'],
      sast: { variables: { OLD: '1' }, tags: ['docker'] },
      include: [{ template: 'Security/SAST.gitlab-ci.yml' }],
    };
    const action = sastBuildActions({ global: [entity('SAST_ANALYZER_IMAGE_TAG', '2')], pipeline: [entity('stage', 'test', 'scan')] }, existing);
    expect(action.action).toBe('update');
    expect(body(action.content)).toBe(`stages:
- build
- test
- scan
sast:
  tags:
  - docker
  stage: scan
include:
- template: Security/SAST.gitlab-ci.yml
`);
    // The value read from the default branch is not changed in place.
    expect(existing.sast.variables).toEqual({ OLD: '1' });
  });

  it('starts with GitLab comment', () => {
    const { content } = sastBuildActions({ global: [] }, undefined);
    expect(content.split('\n').slice(0, COMMENT_LINES)).toEqual([
      '# You can override the included template(s) by including variable overrides',
      '# See https://docs.gitlab.com/ee/user/application_security/sast/#customizing-the-sast-settings',
      '# Note that environment variables can be set in several places',
      '# See https://docs.gitlab.com/ee/ci/variables/#priority-of-environment-variables',
    ]);
  });
});

describe('nextBranch', () => {
  it('numbers one past the highest set-sast-config branch', () => {
    expect(nextBranch('set-sast-config', [])).toBe('set-sast-config-1');
    expect(nextBranch('set-sast-config', ['master', 'set-sast-config'])).toBe('set-sast-config-2');
    expect(nextBranch('set-sast-config', ['set-sast-config-3', 'set-sast-config-10', 'set-sast-config-x', 'xset-sast-config-99'])).toBe('set-sast-config-11');
  });
});
