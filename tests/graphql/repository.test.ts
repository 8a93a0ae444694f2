// Project.repository through POST /api/graphql: an empty and a non-empty repository, the tree (root, a path,
// recursive) with its last commit and its trees/blobs/submodules connections, the Commit fields, the policy, and a
// tree query's cost in queries (Server-Timing) that does not grow with the number of entries.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { queryCount, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { RepoWriter, type TreeSpec } from '../api/repositories/read-support.ts';
import { gql } from './helpers.ts';

const SUBMODULE_OID = 'a'.repeat(40);
const T0 = 1_700_000_000;

const ENTRY = 'id sha name path flatPath type';
const TREE_QUERY = `query($p: ID!, $path: String, $ref: String, $recursive: Boolean) { project(fullPath: $p) { repository {
  rootRef empty exists
  tree(path: $path, ref: $ref, recursive: $recursive) {
    lastCommit { id sha title description message authoredDate authorName authorAvatar author { username } webUrl webPath signatureHtml
      titleHtml descriptionHtml pipelines { count nodes { id } } latestPipeline { id } }
    trees { nodes { ${ENTRY} webUrl webPath } }
    blobs { nodes { ${ENTRY} mode lfsOid webUrl webPath } }
    submodules { nodes { ${ENTRY} webUrl treeUrl } }
  } } } }`;

async function projectWith(tree: TreeSpec, message = 'Add files\n\nWith a body.\n') {
  const owner = await createUser();
  const project = await createProject(owner.token);
  const repo = await RepoWriter.open(project.id, 'main');
  const sha = await repo.commit('main', tree, message, T0);
  return { owner, project, repo, sha };
}

const gid = (type: string, id: string) => `gid://gitlab/${type}/${id}`;

describe('Project.repository', () => {
  it('an empty repository: exists, empty, no root ref and no tree', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const res = await gql(TREE_QUERY, { token: owner.token, variables: { p: project.path_with_namespace } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.repository).toEqual({ rootRef: null, empty: true, exists: true, tree: null });
  });

  it('a repository: the root tree with its last commit, trees, blobs and submodules, exactly', async () => {
    const fx = await projectWith({ 'README.md': '# Hi\n', src: { 'a.ts': 'a\n', lib: { 'b.ts': 'b\n' } }, vendor: { mode: '160000', oid: SUBMODULE_OID } });
    const res = await gql(TREE_QUERY, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } });
    expect(res.body.errors).toBeUndefined();
    const repo = res.body.data.project.repository;
    expect(repo).toMatchObject({ rootRef: 'main', empty: false, exists: true });
    const base = `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}`;
    expect(repo.tree.lastCommit).toEqual({
      id: gid('CommitPresenter', fx.sha),
      sha: fx.sha,
      title: 'Add files',
      description: '\nWith a body.',
      message: 'Add files\n\nWith a body.\n',
      authoredDate: new Date(T0 * 1000).toISOString(),
      authorName: 'Ada Lovelace',
      authorAvatar: null,
      author: null,
      webUrl: `${base}/-/commit/${fx.sha}`,
      webPath: `/${fx.project.path_with_namespace}/-/commit/${fx.sha}`,
      signatureHtml: null,
      titleHtml: 'Add files',
      descriptionHtml: '<p dir="auto"><br>\nWith a body.</p>',
      pipelines: { count: 0, nodes: [] },
      latestPipeline: null,
    });
    const [src] = repo.tree.trees.nodes;
    expect(repo.tree.trees.nodes).toHaveLength(1);
    expect(src).toMatchObject({
      name: 'src',
      path: 'src',
      flatPath: 'src',
      type: 'tree',
      webUrl: `${base}/-/tree/${fx.sha}/src`,
      webPath: `/${fx.project.path_with_namespace}/-/tree/${fx.sha}/src`,
    });
    expect(src.id).toBe(gid('Gitlab::Graphql::Representation::TreeEntry', src.sha));
    expect(src.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.tree.blobs.nodes).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/gitlab\/Gitlab::Graphql::Representation::TreeEntry\/[0-9a-f]{40}$/),
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        name: 'README.md',
        path: 'README.md',
        flatPath: 'README.md',
        type: 'blob',
        mode: '100644',
        lfsOid: null,
        webUrl: `${base}/-/blob/${fx.sha}/README.md`,
        webPath: `/${fx.project.path_with_namespace}/-/blob/${fx.sha}/README.md`,
      },
    ]);
    expect(repo.tree.submodules.nodes).toEqual([
      {
        id: gid('Gitlab::Graphql::Representation::SubmoduleTreeEntry', SUBMODULE_OID),
        sha: SUBMODULE_OID,
        name: 'vendor',
        path: 'vendor',
        flatPath: 'vendor',
        type: 'commit',
        webUrl: null,
        treeUrl: null,
      },
    ]);
  });

  it("Submodule.webUrl/treeUrl: the url .gitmodules gives the entry's path, as SubmoduleHelper maps it", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const [namespace] = project.path_with_namespace.split('/');
    const oids = ['1', '2', '3', '4', '5', '6'].map((c) => c.repeat(40));
    const gitmodules = [
      '# submodules',
      '[submodule "self-https"]',
      `\tpath = libs/self-https`,
      `\turl = ${TEST_PUBLIC_URL}/group/sub/lib.git`,
      '[submodule "self-ssh"]',
      '\tpath = libs/self-ssh',
      `\turl = git@${new URL(TEST_PUBLIC_URL).hostname}:group/lib`,
      '[submodule "relative"]',
      '\tpath = relative',
      '\turl = ../other.git ',
      '[submodule "github"]',
      '\tpath = github',
      '\turl = https://github.com/gitlab-org/gitlab-foss.git',
      '[submodule "elsewhere"]',
      '\tpath = elsewhere',
      '\turl = https://git.example.org/team/repo.git',
      '',
    ].join('\n');
    const repo = await RepoWriter.open(project.id, 'main');
    await repo.commit(
      'main',
      {
        '.gitmodules': gitmodules,
        libs: { 'self-https': { mode: '160000', oid: oids[0]! }, 'self-ssh': { mode: '160000', oid: oids[1]! } },
        relative: { mode: '160000', oid: oids[2]! },
        github: { mode: '160000', oid: oids[3]! },
        elsewhere: { mode: '160000', oid: oids[4]! },
        missing: { mode: '160000', oid: oids[5]! },
      },
      'Submodules\n',
      T0,
    );
    const query = `query($p: ID!, $path: String, $recursive: Boolean) { project(fullPath: $p) { repository { tree(path: $path, recursive: $recursive) {
      submodules { nodes { path sha webUrl treeUrl } } } } } }`;
    const run = (variables: Record<string, unknown>) => gql(query, { token: owner.token, variables: { p: project.path_with_namespace, ...variables } });

    const res = await run({ recursive: true });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.repository.tree.submodules.nodes).toEqual([
      { path: 'elsewhere', sha: oids[4], webUrl: 'https://git.example.org/team/repo.git', treeUrl: null },
      {
        path: 'github',
        sha: oids[3],
        webUrl: 'https://github.com/gitlab-org/gitlab-foss',
        treeUrl: `https://github.com/gitlab-org/gitlab-foss/tree/${oids[3]}`,
      },
      { path: 'libs/self-https', sha: oids[0], webUrl: '/group/sub/lib', treeUrl: `/group/sub/lib/-/tree/${oids[0]}` },
      { path: 'libs/self-ssh', sha: oids[1], webUrl: '/group/lib', treeUrl: `/group/lib/-/tree/${oids[1]}` },
      { path: 'missing', sha: oids[5], webUrl: null, treeUrl: null },
      { path: 'relative', sha: oids[2], webUrl: `/${namespace}/other`, treeUrl: `/${namespace}/other/-/tree/${oids[2]}` },
    ]);

    // A directory's listing reads the root's .gitmodules too (the entries' paths are the repository's).
    const libs = await run({ path: 'libs' });
    expect(libs.body.data.project.repository.tree.submodules.nodes.map((n: { webUrl: string }) => n.webUrl)).toEqual(['/group/sub/lib', '/group/lib']);
  });

  it('budget: the links of any number of submodules, in trees of several commits, cost one statement', async () => {
    const counts: number[] = [];
    const withLinks = 'webUrl treeUrl';
    const query = (fields: string) => `query($p: ID!) { project(fullPath: $p) { repository {
      root: tree(ref: "main") { submodules { nodes { sha ${fields} } } }
      other: tree(ref: "other", path: "d") { submodules { nodes { sha ${fields} } } } } } }`;
    for (const n of [1, 8]) {
      const spec: TreeSpec = { d: { inner: { mode: '160000', oid: SUBMODULE_OID } } };
      const sections: string[] = ['[submodule "d/inner"]', 'path = d/inner', 'url = ../inner.git'];
      for (let i = 0; i < n; i++) {
        spec[`m${i}`] = { mode: '160000', oid: SUBMODULE_OID };
        sections.push(`[submodule "m${i}"]`, `path = m${i}`, `url = https://github.com/org/m${i}.git`);
      }
      spec['.gitmodules'] = `${sections.join('\n')}\n`;
      const fx = await projectWith(spec);
      // Another branch, another commit: its tree's .gitmodules is read in the same statement.
      await fx.repo.commit(
        'other',
        { ...spec, '.gitmodules': `${sections.join('\n').replace('../inner.git', 'https://gitlab.com/org/inner.git')}\n` },
        'Other\n',
        T0,
      );
      const run = (fields: string) => gql(query(fields), { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } });
      const res = await run(withLinks);
      expect(res.body.errors).toBeUndefined();
      const { root, other } = res.body.data.project.repository;
      expect(root.submodules.nodes).toHaveLength(n);
      expect(root.submodules.nodes[n - 1]).toEqual({
        sha: SUBMODULE_OID,
        webUrl: `https://github.com/org/m${n - 1}`,
        treeUrl: `https://github.com/org/m${n - 1}/tree/${SUBMODULE_OID}`,
      });
      expect(other.submodules.nodes).toEqual([
        { sha: SUBMODULE_OID, webUrl: 'https://gitlab.com/org/inner', treeUrl: `https://gitlab.com/org/inner/tree/${SUBMODULE_OID}` },
      ]);
      const without = await run('');
      expect(queryCount(res) - queryCount(without)).toBeLessThanOrEqual(1);
      counts.push(queryCount(res));
    }
    console.log(`submodule budget: ${counts[0]} queries for 1 submodule per tree, ${counts[1]} for 8`);
    expect(counts[1]).toBe(counts[0]);
  });

  it('tree(path, ref, recursive): a directory, every entry below it, the last commit that touched it; an unknown ref is null', async () => {
    const fx = await projectWith({ 'README.md': 'one\n', src: { 'a.ts': 'a\n', lib: { 'b.ts': 'b\n' } } });
    const second = await fx.repo.commit('main', { 'README.md': 'two\n', src: { 'a.ts': 'a\n', lib: { 'b.ts': 'b\n' } } }, 'Change the README\n', T0 + 60);
    const run = (variables: Record<string, unknown>) =>
      gql(TREE_QUERY, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace, ...variables } });

    const root = (await run({})).body.data.project.repository.tree;
    expect(root.lastCommit.sha).toBe(second);

    const src = await run({ path: 'src', ref: 'main', recursive: true });
    expect(src.body.errors).toBeUndefined();
    const tree = src.body.data.project.repository.tree;
    expect(tree.lastCommit.sha).toBe(fx.sha);
    expect(tree.trees.nodes.map((e: { path: string }) => e.path)).toEqual(['src/lib']);
    expect(tree.blobs.nodes.map((e: { path: string; webUrl: string }) => [e.path, e.webUrl])).toEqual([
      ['src/a.ts', `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/blob/${second}/src/a.ts`],
      ['src/lib/b.ts', `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/blob/${second}/src/lib/b.ts`],
    ]);

    const old = (await run({ ref: fx.sha })).body.data.project.repository.tree;
    expect(old.lastCommit.sha).toBe(fx.sha);
    expect((await run({ ref: 'no-such-branch' })).body.data.project.repository.tree).toBeNull();
  });

  it("flatPath follows single-directory chains as Gitaly's does (not in a recursive listing)", async () => {
    const fx = await projectWith({ a: { b: { c: { 'x.txt': 'x' } } }, d: { e: { 'y.txt': 'y' }, 'z.txt': 'z' }, 'r.md': 'r' });
    const query = `query($p: ID!, $recursive: Boolean) { project(fullPath: $p) { repository { tree(recursive: $recursive) {
      trees { nodes { path flatPath } } blobs { nodes { path flatPath } } } } } }`;
    const flat = (await gql(query, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } })).body.data.project.repository.tree;
    expect(flat.trees.nodes).toEqual([
      { path: 'a', flatPath: 'a/b/c' },
      { path: 'd', flatPath: 'd' },
    ]);
    expect(flat.blobs.nodes).toEqual([{ path: 'r.md', flatPath: 'r.md' }]);
    const recursive = (await gql(query, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace, recursive: true } })).body.data.project
      .repository.tree;
    expect(recursive.trees.nodes.every((n: { path: string; flatPath: string }) => n.flatPath === n.path)).toBe(true);
  });

  it('blobs page with first/after as the other connections do', async () => {
    const fx = await projectWith({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    const query = `query($p: ID!, $after: String) { project(fullPath: $p) { repository { tree { blobs(first: 2, after: $after) {
      nodes { name } pageInfo { hasNextPage endCursor } } } } } }`;
    const first = (await gql(query, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } })).body.data.project.repository.tree.blobs;
    expect(first.nodes.map((n: { name: string }) => n.name)).toEqual(['a.txt', 'b.txt']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = (await gql(query, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace, after: first.pageInfo.endCursor } })).body.data
      .project.repository.tree.blobs;
    expect(next.nodes.map((n: { name: string }) => n.name)).toEqual(['c.txt']);
  });

  it('download_code decides: a guest of a private project sees the project, not its repository', async () => {
    const fx = await projectWith({ 'README.md': 'x' });
    const guest = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    const res = await gql('query($p: ID!) { project(fullPath: $p) { fullPath repository { rootRef } } }', {
      token: guest.token,
      variables: { p: fx.project.path_with_namespace },
    });
    expect(res.body).toEqual({ data: { project: { fullPath: fx.project.path_with_namespace, repository: null } } });
  });

  it('Commit title and description as Commit#title: a title of 100 characters or more is cut at a word, the description is the whole message', async () => {
    const long = `${'word '.repeat(24)}end`;
    const fx = await projectWith({ 'a.txt': 'a' }, `${long}\n\nBody\n`);
    const res = await gql('query($p: ID!) { project(fullPath: $p) { repository { tree { lastCommit { title description } } } } }', {
      token: fx.owner.token,
      variables: { p: fx.project.path_with_namespace },
    });
    expect(res.body.data.project.repository.tree.lastCommit).toEqual({ title: `${'word '.repeat(16).trimEnd()}…`, description: `${long}\n\nBody\n` });
  });

  it('Project.repository under a list of projects: one statement for all their repositories', async () => {
    const owner = await createUser();
    const counts: number[] = [];
    const ids: number[] = [];
    for (const n of [2, 6]) {
      while (ids.length < n) {
        const project = await createProject(owner.token);
        await (await RepoWriter.open(project.id, 'main')).commit('main', { 'a.txt': String(ids.length) }, 'One\n', T0);
        ids.push(project.id);
      }
      const res = await gql('query($ids: [ID!]) { projects(ids: $ids) { nodes { repository { rootRef empty exists } } } }', {
        token: owner.token,
        variables: { ids: ids.map((id) => `gid://gitlab/Project/${id}`) },
      });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.projects.nodes).toEqual(ids.map(() => ({ repository: { rootRef: 'main', empty: false, exists: true } })));
      counts.push(queryCount(res));
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('Blob.lfsOid: the sha256 an LFS pointer file names (Blob#lfs_oid), null for other blobs', async () => {
    const oid = 'b'.repeat(64);
    const fx = await projectWith({
      'big.bin': `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 123456\n`,
      'plain.txt': `oid sha256:${oid}\n`,
      'broken.bin': 'version https://git-lfs.github.com/spec/v1\noid sha256:short\n',
      'long.txt': `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\n${'x'.repeat(200)}`,
    });
    const res = await gql(TREE_QUERY, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } });
    expect(res.body.errors).toBeUndefined();
    const blobs = res.body.data.project.repository.tree.blobs.nodes as { name: string; lfsOid: string | null }[];
    expect(Object.fromEntries(blobs.map((b) => [b.name, b.lfsOid]))).toEqual({ 'big.bin': oid, 'broken.bin': null, 'long.txt': null, 'plain.txt': null });
  });

  it('budget: a tree query costs the same number of queries for 3 and 60 entries', async () => {
    const small: TreeSpec = { 'a.txt': 'a', d: { 'b.txt': 'b' }, vendor: { mode: '160000', oid: SUBMODULE_OID } };
    const large: TreeSpec = {};
    for (let i = 0; i < 40; i++) large[`f${i}.txt`] = `file ${i}`;
    for (let i = 0; i < 19; i++) large[`d${i}`] = { 'x.txt': `x${i}` };
    large.vendor = { mode: '160000', oid: SUBMODULE_OID };
    const counts: number[] = [];
    for (const spec of [small, large]) {
      const fx = await projectWith(spec);
      const res = await gql(TREE_QUERY, { token: fx.owner.token, variables: { p: fx.project.path_with_namespace } });
      expect(res.body.errors).toBeUndefined();
      counts.push(queryCount(res));
    }
    console.log(`tree budget: ${counts[0]} queries for 3 entries, ${counts[1]} for 60`);
    expect(counts[1]).toBe(counts[0]);
    // The token, the project, the repository row, the tree listing, its directories' flat paths, the last commit,
    // the commit's author by email, the blobs' LFS pointers, the submodules' .gitmodules, the commit's project as the
    // actor sees it (its pipelines' policy) and its pipelines (latestPipeline reads the same page).
    expect(counts[0]).toBeLessThanOrEqual(11);
  });
});
