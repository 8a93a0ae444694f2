// gitlabracadabra (Debian's, unmodified), the config-as-code tool, against a served instance: a group and a project
// with every setting it manages are created and configured, and a second run finds nothing to change (a setting
// accepted and dropped would show as "Changing param" on every run). Skipped where gitlabracadabra is not installed
// (`.ci/run` installs it).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, unique } from '../factories/users.ts';
import { api, serveTestApp } from '../helpers/app.ts';

const BIN = '/usr/bin/gitlabracadabra';
const available = spawnSync(BIN, ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!available)('gitlabracadabra against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  const dir = mkdtempSync(join(tmpdir(), 'racadabra-'));
  beforeAll(async () => {
    server = await serveTestApp({ env: { INSTANCE_TIER: 'premium' } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(token: string, actions: string): Promise<string[]> {
    writeFileSync(join(dir, 'python-gitlab.cfg'), `[global]\ndefault = test\n\n[test]\nurl = ${server.url}\nprivate_token = ${token}\n`);
    writeFileSync(join(dir, 'actions.yml'), actions);
    const { stdout, stderr } = await promisify(execFile)(BIN, ['--verbose', '-c', join(dir, 'python-gitlab.cfg'), join(dir, 'actions.yml')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, HOME: dir },
    });
    return `${stdout}${stderr}`.split('\n').filter((l) => /\[.*\] /.test(l));
  }

  it('configures a group and a project; the second run changes nothing', async () => {
    const { token } = await createAdmin();
    const group = unique('racadabra');
    const actions = `${group}/:
  create_object: true
  name: Racadabra ${group}
  description: Managed as code
  visibility: internal
  request_access_enabled: false
  share_with_group_lock: true
  emails_disabled: true
  lfs_enabled: false
  project_creation_level: maintainer
  subgroup_creation_level: owner
  require_two_factor_authentication: true
  two_factor_grace_period: 24
  membership_lock: true
  auto_devops_enabled: true
${group}/app:
  create_object: true
  name: app
  description: The app
  visibility: internal
  tag_list: [backend, api]
  request_access_enabled: false
  issues_access_level: private
  repository_access_level: enabled
  merge_requests_access_level: private
  forking_access_level: disabled
  builds_access_level: private
  container_registry_enabled: false
  lfs_enabled: false
  packages_enabled: false
  wiki_access_level: disabled
  snippets_access_level: disabled
  squash_option: default_on
  pages_access_level: disabled
  emails_disabled: true
  merge_method: rebase_merge
  resolve_outdated_diff_discussions: true
  printing_merge_request_link_enabled: false
  remove_source_branch_after_merge: false
  only_allow_merge_if_pipeline_succeeds: true
  allow_merge_on_skipped_pipeline: true
  only_allow_merge_if_all_discussions_are_resolved: true
  suggestion_commit_message: Apply suggestion
  approvals_before_merge: 1
`;
    const first = await run(token, actions);
    expect(first.filter((l) => l.includes('Creating'))).toHaveLength(2);
    expect(first.filter((l) => l.includes('NOT Changing'))).toEqual([]);
    const second = await run(token, actions);
    expect(second.filter((l) => /Creating|Changing/.test(l))).toEqual([]);
    const project = (await api.get(`/projects/${encodeURIComponent(`${group}/app`)}`, { token })).body;
    expect(project).toMatchObject({ issues_access_level: 'private', squash_option: 'default_on', tag_list: ['api', 'backend'], merge_method: 'rebase_merge' });
  });
  it('shares a group and a project with other groups; the second run changes nothing', async () => {
    const admin = await createAdmin();
    const group = unique('racashare');
    const team = (await api.post('/groups', { token: admin.token, body: { name: unique('team'), path: unique('team') } })).body;
    const crew = (await api.post('/groups', { token: admin.token, body: { name: unique('crew'), path: unique('crew') } })).body;
    const actions = `${group}/:
  create_object: true
  name: ${group}
  groups:
    ${team.full_path}: developer
${group}/app:
  create_object: true
  name: app
  groups:
    ${crew.full_path}: reporter
`;
    const first = await run(admin.token, actions);
    expect(first.filter((l) => l.includes('Sharing group'))).toHaveLength(2);
    const second = await run(admin.token, actions);
    expect(second.filter((l) => /Creating|Changing|Sharing|Unsharing/.test(l))).toEqual([]);
    const shared = (await api.get(`/groups/${encodeURIComponent(group)}`, { token: admin.token })).body.shared_with_groups;
    expect(shared).toEqual([expect.objectContaining({ group_id: team.id, group_access_level: 30 })]);
    const project = (await api.get(`/projects/${encodeURIComponent(`${group}/app`)}`, { token: admin.token })).body;
    expect(project.shared_with_groups).toEqual([expect.objectContaining({ group_id: crew.id, group_access_level: 20 })]);
  });
});
