// The paths git refuses (functions/repositories/git/verify-path.ts), with git's own cases: t/t1014-read-tree-confusing.sh
// (read-tree with core.protectHFS and core.protectNTFS), t/t0060-path-utils.sh ("match .gitmodules", the .git spellings
// of is_ntfs_dotgit and is_hfs_dotgit) and t/t7450-bad-git-dotfiles.sh (a symlinked .gitmodules, in its NTFS and HFS
// spellings, and fsck's message ids).
import { describe, expect, it } from 'vitest';
import { checkEntryName, verifyPath } from '../../functions/repositories/git/verify-path.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const ok = (path: string, mode = '100644') => verifyPath(bytes(path), mode);
const U200C = '\u200c';

describe('verifyPath', () => {
  // t1014: each refused at the end of a path and as a subtree.
  const confusing = [
    '.',
    '..',
    '.git',
    '.GIT',
    `${U200C}.Git`,
    `.gI${U200C}T`,
    `.GiT${U200C}`,
    'git~1',
    '.git. ',
    '.\\\\.GIT\\\\foobar',
    '.git\\\\foobar',
    '.git...:alternate-stream',
  ];
  it.each(confusing)('refuses %j at the end of a path and as a directory', (name) => {
    expect(ok(name)).toBe(false);
    expect(ok(`a/${name}`)).toBe(false);
    expect(ok(`${name}/file`)).toBe(false);
    expect(ok(`a/${name}/file`)).toBe(false);
  });

  it('refuses the .git spellings of the issue and of is_ntfs_dotgit', () => {
    for (const path of [
      '.git/config',
      '.git/hooks/pre-commit',
      '.GIT/config',
      'a/.git/x',
      '.Git',
      'GIT~1/config',
      '.git./config',
      '.git /config',
      '.git::$INDEX_ALLOCATION/config',
      'a\\.git\\config',
      '.git\\x',
    ]) {
      expect(ok(path), path).toBe(false);
    }
  });

  it('refuses empty components, NUL, newline, and a trailing slash', () => {
    for (const path of ['', '/a', 'a/', 'a//b', 'a\0b', 'a\nb', 'dir/a\n']) expect(ok(path), JSON.stringify(path)).toBe(false);
  });

  it('accepts names that only look like .git', () => {
    for (const path of [
      '.gitignore',
      '.gitattributes',
      '.github/workflows/ci.yml',
      '.gitlab-ci.yml',
      'a.git',
      'git',
      '.gitx',
      'git~2',
      '..a',
      '.a',
      'a/.../b',
      '.git-credentials',
      'src/main.c',
      'a\\b',
      'gitmod~1',
    ]) {
      expect(ok(path), path).toBe(true);
    }
  });

  // t0060 "match .gitmodules": each is .gitmodules (refused as a symlink, accepted as a file).
  const dotgitmodules = [
    '.gitmodules',
    `.git${U200C}modules`,
    '.Gitmodules',
    '.gitmoduleS',
    '.gitmodules ',
    '.gitmodules.',
    '.gitmodules  ',
    '.gitmodules. ',
    '.gitmodules .',
    '.gitmodules..',
    '.gitmodules   ',
    '.gitmodules.  ',
    '.gitmodules . ',
    '.gitmodules  .',
    '.Gitmodules ',
    '.Gitmodules.',
    'GITMOD~1',
    'gitmod~1',
    'GITMOD~2',
    'gitmod~3',
    'GITMOD~4',
    'GITMOD~1 ',
    'gitmod~2.',
    'GITMOD~3  ',
    'gitmod~4. ',
    'GITMOD~1 .',
    'gitmod~2   ',
    'GITMOD~3.  ',
    'gitmod~4 . ',
    'GI7EBA~1',
    'gi7eba~9',
    'GI7EB~10',
    'GI7EB~11',
    'GI7EB~99',
    'GI7E~100',
    'GI7E~101',
    'GI7E~999',
    '~1000000',
    '~9999999',
    '.gitmodules:$DATA',
    'gitmod~4 . :$DATA',
  ];
  const notDotgitmodules = [
    '.gitmodules x',
    '.gitmodules .x',
    ' .gitmodules',
    '..gitmodules',
    'gitmodules',
    '.gitmodule',
    '.gitmodules x ',
    'GI7EBA~',
    'GI7EBA~0',
    'GI7EBA~~1',
    'GI7EBA~X',
    'Gx7EBA~1',
    'GI7EBX~1',
    'GI7EB~1',
    'GI7EB~01',
    'GI7EB~1X',
    '.gitmodules,:$DATA',
  ];
  it.each(dotgitmodules)('refuses %j as a symlink (not as a file)', (name) => {
    expect(ok(name, '120000')).toBe(false);
    expect(ok(`sub/${name}`, '120000')).toBe(false);
    expect(ok(name, '100644')).toBe(true);
  });
  it.each(notDotgitmodules)('accepts %j as a symlink', (name) => {
    expect(ok(name, '120000')).toBe(true);
  });
});

describe('checkEntryName (fsck_tree)', () => {
  const name = (s: string, mode = '100644') => checkEntryName(bytes(s), mode);
  it("gives fsck's message ids", () => {
    expect(name('')).toBe('emptyName');
    expect(name('a/b')).toBe('fullPathname');
    expect(name('.')).toBe('hasDot');
    expect(name('..')).toBe('hasDotdot');
    expect(name('.git', '40000')).toBe('hasDotgit');
    expect(name('.GIT')).toBe('hasDotgit');
    expect(name(`.${U200C}git`)).toBe('hasDotgit');
    expect(name('git~1')).toBe('hasDotgit');
    expect(name('.git. ')).toBe('hasDotgit');
    expect(name('a\\.git')).toBe('hasDotgit');
    expect(name('\\.git')).toBe('hasDotgit');
    expect(name('x'.repeat(4097))).toBe('largePathname');
    expect(name('a\nb')).toBe('badName');
  });
  it('refuses a symlinked .gitmodules in each spelling of t7450', () => {
    for (const n of ['.gitmodules', '.gitmodules .', `.${U200C}gitmodules`, 'a\\.gitmodules']) expect(name(n, '120000'), n).toBe('gitmodulesSymlink');
    expect(name('.gitmodules', '100644')).toBeUndefined();
  });
  it('accepts ordinary names', () => {
    for (const n of ['README.md', '.gitignore', 'x'.repeat(4096), 'a\\b', '...']) expect(name(n)).toBeUndefined();
  });
});
