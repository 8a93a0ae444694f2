// repositories/git against the system git, both ways: every object of a repository git built (merges, renames, binary
// and executable files, a symlink, a submodule, a non-UTF-8 file name, an annotated tag, a Latin-1 commit, odd
// objects only old tools wrote) decodes and re-encodes to git's exact bytes and id; and objects our encoders make,
// written as a plain git directory, pass `git fsck --strict` and read back through git as we meant them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCommit, encodeCommit, messageText, title, type Commit } from '../../functions/repositories/git/commit.ts';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import { decodeTag, encodeTag, type Tag } from '../../functions/repositories/git/tag.ts';
import { decodeTree, encodeTree, entryType, type TreeEntry } from '../../functions/repositories/git/tree.ts';
import { git, gitObject, hasGit, readGitObjects, runGit, writeLooseObjects, writeRef, type GitObject } from '../helpers/git-dir.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const LATIN1_NAME = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "café.txt" in Latin-1
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'git-interop-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Our codec's bytes for an object git wrote: decoded, then encoded again. */
function reencode({ type, body }: GitObject): Uint8Array {
  if (type === 'tree') return encodeTree(decodeTree(body));
  if (type === 'commit') return encodeCommit(decodeCommit(body));
  if (type === 'tag') return encodeTag(decodeTag(body));
  return body;
}

/** What `git cat-file -p <tree>` prints (with core.quotePath off, so names come out as their bytes). */
const lsTree = (entries: TreeEntry[]) =>
  Buffer.concat(entries.flatMap((e) => [Buffer.from(`${e.mode.padStart(6, '0')} ${entryType(e.mode)} ${e.oid}\t`), e.name, Buffer.from('\n')]));

// Built by hand: no git command writes these any more, but repositories made by older or foreign tools hold them.
const oddCommit = (tree: string, parent: string) =>
  Buffer.concat([
    Buffer.from(`tree ${tree}\nparent ${parent}\nauthor Zo`),
    Buffer.from([0xeb]), // Latin-1 in an identity
    Buffer.from('  <zoe@example.com>  1600000000 +0100\ncommitter <nobody@example.com> 1600000000 +0000\n'),
    Buffer.from(`mergetag object ${parent}\n type commit\n tag v0\n tagger A <a@example.com> 1600000000 +0000\n \n Signed\n`),
    Buffer.from(' -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----\n'),
    Buffer.from('gpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBcBAABCAAQBQJf\n =abcd\n -----END PGP SIGNATURE-----\n\nOdd but real\n'),
  ]);
const oldTag = (object: string) => Buffer.from(`object ${object}\ntype commit\ntag v0.1\n\nFrom before tags had a tagger\n`);

describe.skipIf(!hasGit())(hasGit() ? 'git interop' : 'git interop (SKIPPED: no `git` command on the PATH; .ci/run installs it)', () => {
  describe('objects git wrote', () => {
    let work: string;
    let objects: GitObject[];
    const oids: Record<string, string> = {};
    let clock = 1_600_000_000;
    // Every commit a minute after the last, so ids are reproducible and history has an order.
    const at = () => {
      clock += 60;
      return { GIT_AUTHOR_DATE: `${clock} +0200`, GIT_COMMITTER_DATE: `${clock} +0200` };
    };
    const run = (...args: string[]) => runGit(work, args, { env: at() });
    const rev = (name: string) => git(work, 'rev-parse', name);

    beforeAll(async () => {
      work = await tempDir();
      await run('init', '-q', '-b', 'main');
      await writeFile(join(work, 'README.md'), '# Project\n');
      await writeFile(
        join(work, 'logo.bin'),
        Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256),
      );
      await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
      await chmod(join(work, 'run.sh'), 0o755);
      await symlink('README.md', join(work, 'link'));
      await writeFile(Buffer.concat([Buffer.from(`${work}/`), LATIN1_NAME]), 'Latin-1 name\n');
      await mkdir(join(work, 'a'));
      await writeFile(join(work, 'a', 'x'), 'in a/\n');
      await writeFile(join(work, 'a.b'), 'a.b\n');
      await writeFile(join(work, 'a0'), 'a0\n');
      await run('add', '-A');
      await run('commit', '-q', '-m', 'Initial commit');
      oids.initial = await rev('HEAD');

      await run('checkout', '-q', '-b', 'feature');
      await writeFile(join(work, 'README.md'), '# Project\n\nA feature.\n');
      await run('commit', '-q', '-am', 'Describe the feature');
      await run('checkout', '-q', 'main');
      await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hello\n');
      await run('commit', '-q', '-am', 'Say hello');
      await run('merge', '-q', '--no-ff', 'feature', '-m', "Merge branch 'feature'");
      oids.merge = await rev('HEAD');

      await run('mv', 'README.md', 'docs.md');
      await run('commit', '-q', '-m', 'Rename the README');
      await run('update-index', '--add', '--cacheinfo', `160000,${oids.initial},sub`);
      await run('commit', '-q', '-m', 'Add a submodule');
      oids.submodule = await rev('HEAD');
      await run('tag', '-a', 'v1.0', '-m', 'Release 1.0\n\nThe first one.');
      oids.tag = await rev('v1.0');

      // git writes the message bytes as given and records their charset in an `encoding` header.
      await writeFile(join(work, '.git', 'LATIN1_MSG'), Buffer.from('Café au lait\n\ndéjà vu\n', 'latin1'));
      await run('-c', 'i18n.commitEncoding=ISO-8859-1', 'commit', '-q', '--allow-empty', '-F', '.git/LATIN1_MSG');
      oids.latin1 = await rev('HEAD');
      // commit-tree takes stdin verbatim: a message with no final newline.
      const bare = await runGit(work, ['commit-tree', 'HEAD^{tree}', '-p', 'HEAD'], { input: 'No final newline', env: at() });
      oids.noNewline = bare.stdout.toString().trim();
      await run('update-ref', 'refs/heads/main', oids.noNewline);

      const literally = async (type: string, body: Buffer) =>
        (await runGit(work, ['hash-object', '--literally', '-w', '--stdin', '-t', type], { input: body })).stdout.toString().trim();
      oids.odd = await literally('commit', oddCommit(await rev('HEAD^{tree}'), oids.noNewline));
      oids.oldTag = await literally('tag', oldTag(oids.initial));

      objects = await readGitObjects(work);
    });

    it('reads every object git holds', () => {
      const types = objects.map((o) => o.type);
      expect(new Set(types)).toEqual(new Set(['blob', 'tree', 'commit', 'tag']));
      expect(objects.map((o) => o.oid)).toEqual(expect.arrayContaining(Object.values(oids)));
      expect(types.filter((t) => t === 'commit')).toHaveLength(9);
    });

    it('re-encodes each to the same bytes and id', async () => {
      const mismatches: string[] = [];
      for (const object of objects) {
        const again = reencode(object);
        if (!Buffer.from(again).equals(Buffer.from(object.body))) mismatches.push(`${object.type} ${object.oid}: bytes differ`);
        else if ((await hashObject(object.type, again)) !== object.oid) mismatches.push(`${object.type} ${object.oid}: id differs`);
      }
      expect(mismatches).toEqual([]);
    });

    const decoded = (oid: string) => objects.find((o) => o.oid === oid)!;
    const commit = (oid: string) => decodeCommit(decoded(oid).body);
    const tree = (oid: string) => decodeTree(decoded(commit(oid).tree).body);

    it('reads modes and raw names of files, directories, links and submodules', () => {
      const entries = tree(oids.submodule!).map((e) => [e.mode, Buffer.from(e.name).toString('latin1'), entryType(e.mode)]);
      expect(entries).toEqual([
        ['100644', 'a.b', 'blob'],
        ['40000', 'a', 'tree'],
        ['100644', 'a0', 'blob'],
        ['100644', 'caf\xe9.txt', 'blob'],
        ['100644', 'docs.md', 'blob'],
        ['120000', 'link', 'blob'],
        ['100644', 'logo.bin', 'blob'],
        ['100755', 'run.sh', 'blob'],
        ['160000', 'sub', 'commit'],
      ]);
      expect(tree(oids.submodule!).find((e) => e.mode === '160000')?.oid).toBe(oids.initial);
    });

    it('agrees with git log on every reachable commit', async () => {
      const log = await git(work, 'log', '--all', '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%ai%x00%cn%x00%ce%x00%ct');
      const lines = log.split('\n');
      expect(lines).toHaveLength(8);
      for (const line of lines) {
        const [oid, treeOid, parents, an, ae, at, ai, cn, ce, ct] = line.split('\0');
        const c = commit(oid!);
        expect([c.tree, c.parents.join(' '), c.author.name, c.author.email, String(c.author.time), c.author.tz]).toEqual([
          treeOid,
          parents,
          an,
          ae,
          at,
          ai!.slice(-5),
        ]);
        expect([c.committer.name, c.committer.email, String(c.committer.time)]).toEqual([cn, ce, ct]);
      }
      expect(commit(oids.merge!).parents).toHaveLength(2);
    });

    it('reads the Latin-1 commit in its charset, as git log shows it', async () => {
      const latin1 = commit(oids.latin1!);
      expect(latin1.headers).toEqual([['encoding', 'ISO-8859-1']]);
      expect(messageText(latin1)).toBe('Café au lait\n\ndéjà vu\n');
      expect(title(latin1)).toBe('Café au lait');
      // %B is the message re-encoded to UTF-8 (git() drops the newline log adds after it).
      expect(messageText(latin1)).toBe(await git(work, 'show', '-s', '--format=%B', oids.latin1!));
    });

    it('keeps a message without final newline, odd identities and multi-line headers', () => {
      expect(Buffer.from(commit(oids.noNewline!).message).toString()).toBe('No final newline');
      const odd = commit(oids.odd!);
      expect(odd.author).toMatchObject({ name: 'Zo\udceb', email: 'zoe@example.com', time: 1600000000, tz: '+0100' });
      expect(odd.committer).toMatchObject({ name: '', email: 'nobody@example.com' });
      expect(odd.headers.map(([name]) => name)).toEqual(['mergetag', 'gpgsig']);
      expect(odd.headers[1]![1]).toBe('-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJf\n=abcd\n-----END PGP SIGNATURE-----');
    });

    it('reads annotated tags, with and without a tagger', () => {
      const release = decodeTag(decoded(oids.tag!).body);
      expect(release).toMatchObject({ object: oids.submodule, type: 'commit', tag: 'v1.0', tagger: { name: 'Test Committer' } });
      expect(Buffer.from(release.message).toString()).toBe('Release 1.0\n\nThe first one.\n');
      expect(decodeTag(decoded(oids.oldTag!).body)).toMatchObject({ object: oids.initial, tag: 'v0.1', headers: [] });
      expect(decodeTag(decoded(oids.oldTag!).body).tagger).toBeUndefined();
    });
  });

  describe('objects we wrote', () => {
    let repo: string;
    let gitDir: string;
    const written: GitObject[] = [];
    const commits: { commit: Commit; oid: string }[] = [];
    let rootTree: GitObject;
    let tag: { tag: Tag; oid: string };

    const add = async (object: Promise<GitObject>) => {
      const o = await object;
      written.push(o);
      return o;
    };
    const blob = (content: string) => add(gitObject('blob', bytes(content)));
    const treeOf = (entries: TreeEntry[]) => add(gitObject('tree', encodeTree(entries)));
    const entry = (mode: string, name: string | Uint8Array, oid: string): TreeEntry => ({
      mode,
      name: typeof name === 'string' ? bytes(name) : name,
      oid,
    });

    beforeAll(async () => {
      repo = await tempDir();
      await git(repo, 'init', '-q', '-b', 'main');
      gitDir = join(repo, '.git');

      const readme = await blob('# Hello\n');
      const script = await blob('#!/bin/sh\necho hi\n');
      const target = await blob('README.md');
      const docs = await treeOf([entry('100644', 'guide.md', (await blob('Read me.\n')).oid)]);
      rootTree = await treeOf([
        entry('100644', 'a0', readme.oid),
        entry('40000', 'a', docs.oid),
        entry('100644', 'a.b', readme.oid),
        entry('100644', 'README.md', readme.oid),
        entry('100755', 'run.sh', script.oid),
        entry('120000', 'link', target.oid),
        entry('100644', LATIN1_NAME, (await blob('Latin-1 name\n')).oid),
      ]);
      const later = await treeOf([entry('100644', 'README.md', (await blob('# Hello again\n')).oid), entry('40000', 'docs', docs.oid)]);

      const person = (name: string, time: number) => ({ name, email: `${name.toLowerCase()}@example.com`, time, tz: '+0200' });
      const history: [tree: string, message: Uint8Array, headers: [string, string][]][] = [
        [rootTree.oid, bytes('Initial commit\n'), []],
        [later.oid, bytes('Rewrite the README\n\nWith a body.\n'), []],
        [later.oid, Uint8Array.from([...bytes('Caf'), 0xe9, 0x0a]), [['encoding', 'ISO-8859-1']]],
      ];
      for (const [i, [tree, message, headers]] of history.entries()) {
        const parents = commits.slice(-1).map((c) => c.oid);
        const author = person('Zoë', 1_700_000_000 + i);
        const commit: Commit = { tree, parents, author, committer: person('Ann', 1_700_000_100 + i), headers, message };
        commits.push({ commit, oid: (await add(gitObject('commit', encodeCommit(commit)))).oid });
      }
      const head = commits[commits.length - 1]!.oid;
      const tagger = person('Ann', 1_700_000_200);
      const tagged: Tag = { object: head, type: 'commit', tag: 'v1', tagger, headers: [], message: bytes('Release\n') };
      tag = { tag: tagged, oid: (await add(gitObject('tag', encodeTag(tagged)))).oid };

      await writeLooseObjects(gitDir, written);
      await writeRef(gitDir, 'refs/heads/main', head);
      await writeRef(gitDir, 'refs/tags/v1', tag.oid);
    });

    it('passes git fsck --strict', async () => {
      const { stdout, stderr } = await runGit(repo, ['fsck', '--strict', '--no-progress']);
      expect([stdout.toString(), stderr]).toEqual(['', '']);
    });

    it('is the history git log walks', async () => {
      expect((await git(repo, 'log', '--format=%H', 'main')).split('\n')).toEqual(commits.map((c) => c.oid).reverse());
      expect(await git(repo, 'log', '-1', '--format=%an <%ae> %at%n%B', 'main~1')).toBe(
        'Zoë <zoë@example.com> 1700000001\nRewrite the README\n\nWith a body.\n',
      );
      expect(await git(repo, 'show', '-s', '--format=%s', 'main')).toBe('Café');
    });

    it('prints our tree and commit as our decoders read them', async () => {
      const printed = (await runGit(repo, ['-c', 'core.quotePath=false', 'cat-file', '-p', rootTree.oid])).stdout;
      expect(printed.equals(lsTree(decodeTree(rootTree.body)))).toBe(true);
      expect(printed.toString('latin1')).toContain('\tcaf\xe9.txt\n');
      for (const { commit, oid } of commits) {
        const raw = (await runGit(repo, ['cat-file', '-p', oid])).stdout;
        expect(decodeCommit(raw)).toEqual(commit);
      }
      expect(decodeTag((await runGit(repo, ['cat-file', '-p', 'v1'])).stdout)).toEqual(tag.tag);
      expect(await git(repo, 'for-each-ref', '--format=%(tag) %(taggername) %(*objectname)', 'refs/tags')).toBe(`v1 Ann ${tag.tag.object}`);
    });
  });
});
