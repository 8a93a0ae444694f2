// python-gitlab (Debian's python3-gitlab, unmodified) against a served instance, for the calls it shapes its own way:
// feature flags (`POST /features//NAME`, `GET /features/`: GitLab's router squeezes the slashes) and `label.save()`
// (`PUT .../labels` with the name in the body, GitLab 13.x's collection form), and the merge-request fields a modern
// client reads unconditionally (detailed_merge_status), and GPG keys with a commit's signature (a commit signed by
// `gpg` and pushed with git, where both are installed). Skipped where python3-gitlab is not installed (`.ci/run`
// installs it).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createAdmin, createUser, unique } from '../factories/users.ts';
import { generateKey } from '../api/deploy-keys/helpers.ts';
import { serveTestApp } from '../helpers/app.ts';
import { Gpg, hasGpg, makePublicKey, SignedRepo } from '../api/gpg-keys/support.ts';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' }).status === 0;

/**
 * Runs `script` with `gl` (a python-gitlab client for the served instance) and `args`; returns what it prints as JSON.
 * Asynchronously: the served app answers from this same process.
 */
async function python(url: string, token: string, script: string, args: Record<string, unknown>): Promise<any> {
  const prelude = `import json, sys, gitlab\nargs = json.loads(sys.argv[1])\ngl = gitlab.Gitlab(${JSON.stringify(url)}, private_token=${JSON.stringify(token)})\n`;
  const { stdout } = await promisify(execFile)(PYTHON, ['-c', prelude + script, JSON.stringify(args)], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(stdout);
}

describe.skipIf(!available)('python-gitlab against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('feature flags: set, list, delete', async () => {
    const { token } = await createAdmin();
    const name = unique('flag_');
    const out = await python(
      server.url,
      token,
      `feature = gl.features.set(args['name'], True)
listed = [f.name for f in gl.features.list(all=True)]
gl.features.delete(args['name'])
after = [f.name for f in gl.features.list(all=True)]
print(json.dumps({'state': feature.state, 'listed': args['name'] in listed, 'after': args['name'] in after}))`,
      { name },
    );
    expect(out).toEqual({ state: 'on', listed: true, after: false });
  });

  it('label.save() on project and group labels, then label.delete()', async () => {
    const { token } = await createAdmin();
    const group = await createGroup(token);
    const project = await createProject(token, { namespaceId: group.id });
    const out = await python(
      server.url,
      token,
      `project = gl.projects.get(args['project'])
label = project.labels.create({'name': 'bug', 'color': '#FF0000'})
label.new_name = 'defect'
label.description = 'd'
label.save()
saved = project.labels.get(label.id)
label.delete()
group = gl.groups.get(args['group'])
glabel = group.labels.create({'name': 'g-bug', 'color': '#00FF00'})
glabel.color = '#0000FF'
glabel.save()
print(json.dumps({'project': [saved.name, saved.description], 'left': len(project.labels.list(include_ancestor_groups=False)),
  'group': [group.labels.get(glabel.id).color]}))`,
      { project: project.id, group: group.id },
    );
    expect(out).toEqual({ project: ['defect', 'd'], left: 0, group: ['#0000FF'] });
  });
  it('merge requests: create from a branch, list, changes, save(), merge()', async () => {
    const { token } = await createAdmin();
    const out = await python(
      server.url,
      token,
      `project = gl.projects.create({'name': args['name'], 'initialize_with_readme': True})
project.branches.create({'branch': 'topic', 'ref': 'master'})
project.commits.create({'branch': 'topic', 'commit_message': 'Add', 'actions': [{'action': 'create', 'file_path': 'a.txt', 'content': 'a\\n'}]})
mr = project.mergerequests.create({'source_branch': 'topic', 'target_branch': 'master', 'title': 'Add a'})
mr.description = 'edited'
mr.labels = ['one', 'two']
mr.save()
again = project.mergerequests.get(mr.iid)
listed = [m.iid for m in project.mergerequests.list(state='opened', labels=['one'])]
changes = [c['new_path'] for c in mr.changes()['changes']]
commits = [c.title for c in mr.commits()]
mr.merge()
merged = project.mergerequests.get(mr.iid)
print(json.dumps({'description': again.description, 'labels': again.labels, 'listed': listed, 'changes': changes, 'commits': commits, 'state': merged.state, 'tip': project.branches.get('master').commit['id'] == merged.merge_commit_sha}))`,
      { name: unique('py-mr-') },
    );
    expect(out).toEqual({ description: 'edited', labels: ['one', 'two'], listed: [1], changes: ['a.txt'], commits: ['Add'], state: 'merged', tip: true });
  });

  it("merge requests: detailed_merge_status, read as python-gitlab's functional fixtures wait on it", async () => {
    const { token } = await createAdmin();
    const out = await python(
      server.url,
      token,
      `project = gl.projects.create({'name': args['name'], 'initialize_with_readme': True})
project.branches.create({'branch': 'topic', 'ref': 'master'})
project.commits.create({'branch': 'topic', 'commit_message': 'Add', 'actions': [{'action': 'create', 'file_path': 'a.txt', 'content': 'a\\n'}]})
mr = project.mergerequests.create({'source_branch': 'topic', 'target_branch': 'master', 'title': 'Draft: Add a'})
for _ in range(10):
    mr = project.mergerequests.get(mr.iid)
    if mr.detailed_merge_status not in ('checking', 'unchecked'):
        break
draft = mr.detailed_merge_status
mr.title = 'Add a'
mr.save()
ready = project.mergerequests.get(mr.iid).detailed_merge_status
listed = [m.detailed_merge_status for m in project.mergerequests.list()]
mr.merge()
merged = project.mergerequests.get(mr.iid).detailed_merge_status
print(json.dumps({'draft': draft, 'ready': ready, 'listed': listed, 'merged': merged}))`,
      { name: unique('py-mr-status-') },
    );
    expect(out).toEqual({ draft: 'draft_status', ready: 'mergeable', listed: ['mergeable'], merged: 'not_open' });
  });

  it("group runners: the group's runners_token registers one; group.runners.list(); details with groups; not a project's", async () => {
    const { token } = await createUser();
    const group = await createGroup(token);
    const subgroup = await createGroup(token, { parentId: group.id });
    const project = await createProject(token, { namespaceId: subgroup.id });
    const out = await python(
      server.url,
      token,
      `group = gl.groups.get(args['group'])
runner = gl.runners.create({'token': group.runners_token, 'description': 'py group runner', 'tag_list': ['docker']})
listed = [(r.id, r.runner_type) for r in gl.groups.get(args['subgroup']).runners.list(all=True)]
details = gl.runners.get(runner.id)
in_project = [r.id for r in gl.projects.get(args['project']).runners.list(type='group_type')]
try:
    gl.projects.get(args['project']).runners.create({'runner_id': runner.id})
    refused = None
except gitlab.exceptions.GitlabCreateError as e:
    refused = [e.response_code, e.error_message]
print(json.dumps({'listed': listed == [(runner.id, 'group_type')], 'type': details.runner_type, 'groups': [g['id'] for g in details.groups],
  'tags': details.tag_list, 'in_project': in_project == [runner.id], 'refused': refused}))`,
      { group: group.id, subgroup: subgroup.id, project: project.id },
    );
    expect(out).toEqual({
      listed: true,
      type: 'group_type',
      groups: [group.id],
      tags: ['docker'],
      in_project: true,
      refused: [403, '403 Forbidden - Runner is a group runner'],
    });
  });

  it('project, group and user settings through save(); namespaces; application settings and statistics', async () => {
    const { token } = await createAdmin();
    const group = await createGroup(token);
    const project = await createProject(token, { namespaceId: group.id });
    const out = await python(
      server.url,
      token,
      `project = gl.projects.get(args['project'])
project.issues_access_level = 'private'
project.ci_config_path = 'ci/main.yml'
project.tag_list = ['b', 'a']
project.squash_option = 'always'
project.save()
project = gl.projects.get(args['project'])
group = gl.groups.get(args['group'])
group.project_creation_level = 'noone'
group.save()
gl.auth()
me = gl.users.get(gl.user.id)
me.twitter = 'py_gitlab'
me.save()
ns = gl.namespaces.get(args['group_path'])
listed = [n.full_path for n in gl.namespaces.list(search=args['group_path'])]
settings = gl.settings.get()
settings.home_page_url = 'https://home.example'
settings.save()
home = gl.settings.get().home_page_url
settings.home_page_url = None
settings.save()
stats = gl.statistics.get()
print(json.dumps({
  'project': [project.issues_access_level, project.ci_config_path, project.tag_list, project.squash_option],
  'group': gl.groups.get(args['group']).project_creation_level,
  'twitter': gl.users.get(gl.user.id).twitter,
  'namespace': [ns.id, ns.kind],
  'listed': listed,
  'home': home,
  'users': int(stats.users.replace(',', '')) > 0,
}))`,
      { project: project.id, group: group.id, group_path: group.full_path },
    );
    expect(out).toEqual({
      project: ['private', 'ci/main.yml', ['a', 'b'], 'always'],
      group: 'noone',
      twitter: 'py_gitlab',
      namespace: [group.id, 'group'],
      listed: [group.full_path],
      home: 'https://home.example',
      users: true,
    });
  });
  it('item 4 and 5 managers: shares, access requests, badges, fork relation, transfer, languages, users, uploads, keys, emails, status, memberships', async () => {
    const admin = await createAdmin();
    const asker = await createUser();
    const group = await createGroup(admin.token);
    const team = await createGroup(admin.token);
    const other = await createGroup(admin.token);
    const project = await createProject(admin.token, { namespaceId: group.id });
    const source = await createProject(admin.token, { visibility: 'public' });
    const key = generateKey().pub;
    const out = await python(
      server.url,
      admin.token,
      `asker = gitlab.Gitlab(gl.url, private_token=args['asker_token'])
project = gl.projects.get(args['project'])
project.share(args['team'], 20)
shared = [g['group_id'] for g in gl.projects.get(args['project']).shared_with_groups]
project.unshare(args['team'])
gl.groups.get(args['group']).share(args['team'], 30)
asker.projects.get(args['source']).accessrequests.create({})
requests = [r.username for r in gl.projects.get(args['source']).accessrequests.list()]
gl.projects.get(args['source']).accessrequests.list()[0].approve(access_level=20)
badge = project.badges.create({'link_url': 'https://x.example/%{project_path}', 'image_url': 'https://x.example/b.svg', 'name': 'b'})
rendered = project.badges.render('https://x.example/%{project_id}', 'https://x.example/i.svg')['rendered_link_url']
badge.name = 'renamed'
badge.save()
badges = [b.name for b in project.badges.list()]
project.create_fork_relation(args['source'])
forked = gl.projects.get(args['project']).forked_from_project['id']
project.delete_fork_relation()
project.transfer_project(args['other'])
moved = gl.projects.get(args['project']).namespace['id']
upload = project.upload('notes.txt', filedata=b'hello')
users = [u.username for u in project.users.list()]
me = gl.user
gl.auth()
gl.user.keys.create({'title': 'k', 'key': args['key']})
keys = [k.title for k in gl.user.keys.list()]
gl.user.emails.create({'email': args['email']})
emails = [e.email for e in gl.user.emails.list()]
status = gl.user.status.get()
status.message = 'busy'
status.emoji = 'rocket'
status.save()
status = gl.user.status.get()
memberships = sorted(m.source_type for m in gl.users.get(args['asker_id']).memberships.list())
print(json.dumps({
  'shared': shared,
  'requests': requests,
  'rendered': rendered,
  'badges': badges,
  'forked': forked,
  'moved': moved,
  'upload': sorted(upload.keys()),
  'users': users,
  'keys': keys,
  'emails': emails,
  'status': [status.emoji, status.message],
  'memberships': memberships,
  'languages': project.languages(),
}))`,
      {
        project: project.id,
        source: source.id,
        group: group.id,
        team: team.id,
        other: other.id,
        asker_token: asker.token,
        asker_id: asker.user.id,
        key,
        email: `${unique('py')}@example.com`,
      },
    );
    expect(out).toEqual({
      shared: [team.id],
      requests: [asker.user.username],
      rendered: `https://x.example/${project.id}`,
      badges: ['renamed'],
      forked: source.id,
      moved: other.id,
      // python-gitlab builds its own dict of alt, url and markdown from the answer.
      upload: ['alt', 'markdown', 'url'],
      users: [admin.user.username],
      keys: ['k'],
      emails: [expect.stringMatching(/@example\.com$/)],
      status: ['rocket', 'busy'],
      memberships: ['Project'],
      languages: {},
    });
  });
  it('search: the instance, a group and a project, as python-gitlab pages them', async () => {
    const { token } = await createUser();
    const w = unique('pysearch').toLowerCase();
    const group = await createGroup(token, { visibility: 'public' });
    const project = await createProject(token, { visibility: 'public', namespaceId: group.id, name: `find ${w}` });
    const out = await python(
      server.url,
      token,
      `project = gl.projects.get(args['project'])
project.files.create({'file_path': 'notes.txt', 'branch': 'main', 'content': 'one\\ntwo ' + args['w'] + '\\n', 'commit_message': 'add ' + args['w']})
project.issues.create({'title': 'bug ' + args['w']})
group = gl.groups.get(args['group'])
print(json.dumps({
  'projects': [p['id'] for p in gl.search(gitlab.const.SEARCH_SCOPE_PROJECTS, args['w'])],
  'issues': [i['title'] for i in group.search(gitlab.const.SEARCH_SCOPE_ISSUES, args['w'])],
  'blobs': [(b['path'], b['startline'], b['data']) for b in project.search(gitlab.const.SEARCH_SCOPE_BLOBS, args['w'])],
  'commits': [c['title'] for c in project.search(gitlab.const.SEARCH_SCOPE_COMMITS, args['w'], all=True)],
}))`,
      { project: project.id, group: group.id, w },
    );
    expect(out).toEqual({
      projects: [project.id],
      issues: [`bug ${w}`],
      blobs: [['notes.txt', 1, `one\ntwo ${w}\n`]],
      commits: [`add ${w}`],
    });
  });

  it('GPG keys (gl.user.gpgkeys, user.gpgkeys) and commit.signature() on a gpg-signed commit pushed with git', async () => {
    const admin = await createAdmin();
    const me = await createUser();
    const project = await createProject(me.token);
    const args: Record<string, unknown> = {
      project: project.id,
      me: me.user.id,
      mine: await makePublicKey(me.user.email),
      theirs: await makePublicKey(me.user.email),
      admin_token: admin.token,
      signed: null,
    };
    let gpg: Gpg | undefined;
    let work: string | undefined;
    if (hasGpg()) {
      gpg = await Gpg.open();
      work = await mkdtemp(join(tmpdir(), 'py-gpg-'));
      const fingerprint = await gpg.generate(`Me <${me.user.email}>`);
      const repo = await SignedRepo.open(gpg, work, 'signed');
      await repo.commit('unsigned', { committerEmail: me.user.email });
      args.signed = await repo.commit('signed', { signingKey: `${fingerprint}!`, committerEmail: me.user.email });
      args.signing_key = await gpg.exportPublic(fingerprint);
      await repo.pushAll(`${server.url.replace('://', `://x:${me.token}@`)}/${project.path_with_namespace}.git`);
    }
    try {
      const out = await python(
        server.url,
        me.token,
        `gl.auth()
key = gl.user.gpgkeys.create({'key': args['mine']})
listed = [k.id for k in gl.user.gpgkeys.list()]
got = gl.user.gpgkeys.get(key.id)
admin = gitlab.Gitlab(gl.url, private_token=args['admin_token'])
theirs = admin.users.get(args['me'], lazy=True).gpgkeys.create({'key': args['theirs']})
public = sorted(k.id for k in gl.users.get(args['me'], lazy=True).gpgkeys.list())
key.delete()
admin.users.get(args['me'], lazy=True).gpgkeys.delete(theirs.id)
left = [k.id for k in gl.user.gpgkeys.list()]
signature = None
unsigned = None
if args['signed']:
    gl.user.gpgkeys.create({'key': args['signing_key']})
    project = gl.projects.get(args['project'])
    signature = project.commits.get(args['signed']).signature()
    try:
        project.commits.get(project.commits.get(args['signed']).parent_ids[0]).signature()
    except gitlab.exceptions.GitlabGetError as e:
        unsigned = [e.response_code, e.error_message]
print(json.dumps({'same': got.key == args['mine'].strip(), 'listed': listed == [key.id], 'public': public == sorted([key.id, theirs.id]),
  'left': left, 'signature': signature, 'unsigned': unsigned}))`,
        args,
      );
      expect(out).toMatchObject({ same: true, listed: true, public: true, left: [] });
      if (args.signed) {
        expect(out.signature).toMatchObject({ signature_type: 'PGP', verification_status: 'verified', gpg_key_user_email: me.user.email.toLowerCase() });
        expect(out.unsigned).toEqual([404, '404 Signature Not Found']);
      }
    } finally {
      await gpg?.close();
      if (work) await rm(work, { recursive: true, force: true });
    }
  });
  it('broadcast messages, impersonation tokens, deploy tokens and the runner administration API', async () => {
    const admin = await createAdmin();
    const { user } = await createUser();
    const project = await createProject(admin.token);
    const out = await python(
      server.url,
      admin.token,
      `message = gl.broadcastmessages.create({'message': 'maintenance tonight', 'color': '#cc0000'})
messages = [m.message for m in gl.broadcastmessages.list(all=True) if m.id == message.id]
message.delete()
user = gl.users.get(args['user'])
token = user.impersonationtokens.create({'name': 'py', 'scopes': ['api']})
impersonated = gitlab.Gitlab(gl.url, private_token=token.token)
impersonated.auth()
tokens = [(t.name, t.impersonation) for t in user.impersonationtokens.list(state='active')]
project = gl.projects.get(args['project'])
deploy = project.deploytokens.create({'name': 'ci', 'scopes': ['read_repository'], 'username': 'deployer'})
deploys = [(d.name, d.username) for d in project.deploytokens.list()]
everywhere = [d.id for d in gl.deploytokens.list(all=True)]
runners = gl.runners.all(all=True)
print(json.dumps({
  'messages': messages,
  'impersonated_as': impersonated.user.username,
  'tokens': tokens,
  'deploy_token_shown': len(deploy.token) > 0,
  'deploys': deploys,
  'in_instance_list': deploy.id in everywhere,
  'runners_listed': isinstance(runners, list),
}))`,
      { user: user.id, project: project.id },
    );
    expect(out).toEqual({
      messages: ['maintenance tonight'],
      impersonated_as: user.username,
      tokens: [['py', true]],
      deploy_token_shown: true,
      deploys: [['ci', 'deployer']],
      in_instance_list: true,
      runners_listed: true,
    });
  });
});
