// GET /projects/:id/snapshot (GitLab 13.6 project_snapshots.rb): the repository as a bare git directory in a tar, for
// administrators. The real tar and git read it: it unpacks, `git fsck` finds every object sound, and a clone of it
// has the project's branches, tags and files.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { hasGit, git } from '../../helpers/git-dir.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { fetchArchive } from './archive-support.ts';

describe.runIf(hasGit())('GET /projects/:id/snapshot', () => {
  it('is a tar of the bare repository that git reads; administrators only', async () => {
    const owner = await createUser();
    const admin = await createAdmin();
    const p = await createProject(owner.token, { visibility: 'public' });
    const first = await api.post(`/projects/${p.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: '# hi\n' }] },
    });
    expect(first.status).toBe(201);
    const second = await api.post(`/projects/${p.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'feature', start_branch: 'main', commit_message: 'second', actions: [{ action: 'create', file_path: 'src/a.txt', content: 'a\n' }] },
    });
    expect(second.status).toBe(201);
    const tag = await api.post(`/projects/${p.id}/repository/tags`, { token: owner.token, body: { tag_name: 'v1', ref: 'main', message: 'release' } });
    expect(tag.status).toBe(201);

    expect((await fetchArchive(`/projects/${p.id}/snapshot`)).status).toBe(401);
    const refused = await fetchArchive(`/projects/${p.id}/snapshot`, owner.token);
    expect([refused.status, refused.json()]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await fetchArchive('/projects/999999999/snapshot', owner.token)).status).toBe(403);
    const missing = await fetchArchive('/projects/999999999/snapshot', admin.token);
    expect([missing.status, missing.json()]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await fetchArchive(`/projects/${p.id}/snapshot?wiki=true`, admin.token)).status).toBe(404);
    expect((await fetchArchive(`/projects/${p.id}/snapshot?wiki=maybe`, admin.token)).status).toBe(400);

    const res = await fetchArchive(`/projects/${p.id}/snapshot`, admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="snapshot.tar"');
    expect(res.bytes.length % 10240).toBe(0);

    const work = await mkdtemp(join(tmpdir(), 'snapshot-'));
    try {
      await writeFile(join(work, 'snapshot.tar'), res.bytes);
      const bare = join(work, 'repo.git');
      expect(spawnSync('mkdir', [bare]).status).toBe(0);
      const untar = spawnSync('tar', ['-xf', join(work, 'snapshot.tar'), '-C', bare], { encoding: 'utf8' });
      expect(untar.status, untar.stderr).toBe(0);
      expect(await readFile(join(bare, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
      const fsck = spawnSync('git', ['--git-dir', bare, 'fsck', '--full', '--strict'], { encoding: 'utf8' });
      expect(fsck.status, fsck.stderr).toBe(0);
      const refs = (await git(bare, '--git-dir', bare, 'for-each-ref', '--format=%(refname) %(objectname)')).trim().split('\n');
      expect(refs).toEqual([
        `refs/heads/feature ${second.body.id}`,
        `refs/heads/main ${first.body.id}`,
        `refs/tags/v1 ${(await git(bare, '--git-dir', bare, 'rev-parse', 'v1')).trim()}`,
      ]);
      expect((await git(bare, '--git-dir', bare, 'rev-parse', 'v1^{commit}')).trim()).toBe(first.body.id);
      const clone = spawnSync('git', ['clone', '-q', '-b', 'feature', bare, join(work, 'clone')], { encoding: 'utf8' });
      expect(clone.status, clone.stderr).toBe(0);
      expect(await readFile(join(work, 'clone', 'src/a.txt'), 'utf8')).toBe('a\n');
      expect(await readFile(join(work, 'clone', 'README.md'), 'utf8')).toBe('# hi\n');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
