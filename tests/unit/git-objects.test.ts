// repositories/git: git's object encoding (ids, trees, commits, tags) against known vectors and round trips. The
// system git checks the same codec in tests/repositories/git-interop.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeCommit, encodeCommit, messageText, title, type Commit, type Signature } from '../../functions/repositories/git/commit.ts';
import { bytesToOid, hashObject, isOid, oidToBytes } from '../../functions/repositories/git/oid.ts';
import { formatSignature, parseSignature } from '../../functions/repositories/git/signature.ts';
import { decodeTag, encodeTag, type Tag } from '../../functions/repositories/git/tag.ts';
import { decodeText, encodeText } from '../../functions/repositories/git/text.ts';
import { decodeTree, encodeTree, entryType, isExecutable, isSymlink, type TreeEntry } from '../../functions/repositories/git/tree.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const name = (s: string) => bytes(s);
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const OID_A = 'e25f1814e51579d5f55c0f1fe0135ddb28a47f4a';
const OID_B = '33e39f3603339efabe0762d50aec8edb031de64a';
const OID_C = 'c1b0730e0133447badcfd47fd144e254807b06e1';

describe('object ids', () => {
  it.each([
    ['blob', '', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
    ['blob', 'hello world\n', '3b18e512dba79e4c8300dd08aeb37f8e728b8dad'],
    ['tree', '', EMPTY_TREE],
  ] as const)('%s %j hashes as git does', async (type, body, oid) => {
    expect(await hashObject(type, bytes(body))).toBe(oid);
  });

  it('converts between hex and the 20 bytes stored in trees', () => {
    const raw = oidToBytes(OID_A);
    expect(raw).toHaveLength(20);
    expect([raw[0], raw[19]]).toEqual([0xe2, 0x4a]);
    expect(bytesToOid(raw)).toBe(OID_A);
    const padded = new Uint8Array(25);
    padded.set(raw, 3);
    expect(bytesToOid(padded, 3)).toBe(OID_A);
    expect(() => bytesToOid(padded, 6)).toThrow(/past the end/);
  });

  it.each([
    [OID_A, true],
    [OID_A.toUpperCase(), false],
    [OID_A.slice(0, 39), false],
    [`${OID_A}0`, false],
    ['g'.repeat(40), false],
  ])('isOid(%j) is %s', (s, valid) => {
    expect(isOid(s)).toBe(valid);
    if (!valid) expect(() => oidToBytes(s)).toThrow(/not an object id/);
  });
});

describe('trees', () => {
  it('encodes as git wrote the tree of a.b, a/ and a0 (a directory sorts as if its name ended in /)', async () => {
    const body = encodeTree([
      { mode: '100644', name: name('a0'), oid: OID_C },
      { mode: '40000', name: name('a'), oid: OID_B },
      { mode: '100644', name: name('a.b'), oid: OID_A },
    ]);
    expect(await hashObject('tree', body)).toBe('58e9e5eedbc1bd616215fb47b2060f4228f15321');
    expect(decodeTree(body).map((e) => [e.mode, text(e.name), e.oid])).toEqual([
      ['100644', 'a.b', OID_A],
      ['40000', 'a', OID_B],
      ['100644', 'a0', OID_C],
    ]);
    expect(text(body.subarray(0, 11))).toBe('100644 a.b\0');
    expect(body).toHaveLength(3 * 21 + 'a.b100644 a40000 a0100644 '.length);
  });

  const order = (entries: [mode: string, name: string][]) =>
    decodeTree(encodeTree(entries.map(([mode, n]) => ({ mode, name: name(n), oid: OID_A })))).map((e) => text(e.name));

  it.each<[string, [string, string][], string[]]>([
    [
      'a file sorts before the names it prefixes',
      [
        ['100644', 'a.b'],
        ['100644', 'a'],
      ],
      ['a', 'a.b'],
    ],
    [
      'a directory sorts after them',
      [
        ['40000', 'foo'],
        ['100644', 'foo0'],
        ['100644', 'foo.c'],
        ['100644', 'foo-bar'],
      ],
      ['foo-bar', 'foo.c', 'foo', 'foo0'],
    ],
    [
      'a submodule sorts as a file, not as a directory',
      [
        ['100644', 'sub-a'],
        ['160000', 'sub'],
      ],
      ['sub', 'sub-a'],
    ],
    [
      'bytes compare unsigned, upper case first',
      [
        ['100644', 'é'],
        ['100644', 'z'],
        ['100644', 'Z'],
      ],
      ['Z', 'z', 'é'],
    ],
  ])('%s', (_, entries, expected) => {
    expect(order(entries)).toEqual(expected);
  });

  it('keeps raw name bytes and legacy modes through a round trip', () => {
    const latin1 = Uint8Array.of(0x63, 0x61, 0x66, 0xe9); // "café" in Latin-1: not UTF-8
    const entries: TreeEntry[] = [
      { mode: '100664', name: name('legacy'), oid: OID_A },
      { mode: '100644', name: latin1, oid: OID_B },
      { mode: '120000', name: name('link'), oid: OID_C },
    ];
    const body = encodeTree(entries);
    const decoded = decodeTree(body);
    expect(decoded.find((e) => e.name[3] === 0xe9)?.name).toEqual(latin1);
    expect(decoded.find((e) => text(e.name) === 'legacy')?.mode).toBe('100664');
    expect(encodeTree(decoded)).toEqual(body);
  });

  it('refuses entries git would call broken', () => {
    const entry = { mode: '100644', name: name('a'), oid: OID_A };
    expect(() => encodeTree([{ ...entry, name: name('') }])).toThrow(/invalid tree entry name/);
    expect(() => encodeTree([{ ...entry, name: name('a/b') }])).toThrow(/invalid tree entry name/);
    expect(() => encodeTree([{ ...entry, name: Uint8Array.of(0x61, 0) }])).toThrow(/invalid tree entry name/);
    expect(() => encodeTree([{ ...entry, mode: '10064x' }])).toThrow(/invalid tree entry mode/);
    expect(() => encodeTree([{ ...entry, oid: 'abc' }])).toThrow(/invalid tree entry id/);
    // A file and a directory of one name collide although other names sort between them.
    expect(() => encodeTree([entry, { ...entry, name: name('a.b') }, { ...entry, mode: '40000' }])).toThrow(/duplicate tree entry "a"/);
  });

  it('refuses a truncated body', () => {
    const body = encodeTree([{ mode: '100644', name: name('a'), oid: OID_A }]);
    expect(decodeTree(new Uint8Array())).toEqual([]);
    expect(() => decodeTree(body.subarray(0, body.length - 1))).toThrow(/malformed tree entry at byte 0/);
    expect(() => decodeTree(bytes('100644 a'))).toThrow(/malformed tree entry/);
    expect(() => decodeTree(bytes(`x ${'\0'.repeat(21)}`))).toThrow(/malformed tree entry mode/);
  });

  it.each([
    ['100644', 'blob', false, false],
    ['100755', 'blob', true, false],
    ['100664', 'blob', false, false],
    ['100775', 'blob', true, false],
    ['120000', 'blob', false, true],
    ['40000', 'tree', false, false],
    ['160000', 'commit', false, false],
  ] as const)('mode %s: %s, executable %s, symlink %s', (mode, type, executable, symlink) => {
    expect(entryType(mode)).toBe(type);
    expect(isExecutable(mode)).toBe(executable);
    expect(isSymlink(mode)).toBe(symlink);
  });
});

describe('header text', () => {
  it('reads valid UTF-8 as itself and escapes every other byte reversibly', () => {
    for (const s of ['', 'plain', 'Zoë 😀 中文', 'a\u{10ffff}']) {
      expect(decodeText(bytes(s))).toBe(s);
      expect(encodeText(s)).toEqual(bytes(s));
    }
    const latin1 = Uint8Array.of(0x5a, 0x6f, 0xeb); // "Zoë" in Latin-1
    expect(decodeText(latin1)).toBe('Zo\udceb');
    expect(encodeText('Zo\udceb')).toEqual(latin1);
    // An overlong '/', a UTF-16 surrogate, a truncated sequence, beyond U+10FFFF: all bytes, kept as they were.
    for (const raw of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98, 0x80, 0xff],
    ]) {
      expect(encodeText(decodeText(Uint8Array.from(raw)))).toEqual(Uint8Array.from(raw));
    }
  });

  it('round-trips random bytes', () => {
    for (let i = 0; i < 200; i++) {
      const raw = crypto.getRandomValues(new Uint8Array(1 + (i % 40)));
      expect(encodeText(decodeText(raw))).toEqual(raw);
    }
  });
});

describe('signatures', () => {
  const author: Signature = { name: 'A U Thor', email: 'author@example.com', time: 1112911993, tz: '-0700' };

  it('parses and formats the canonical form without keeping the line', () => {
    expect(parseSignature('A U Thor <author@example.com> 1112911993 -0700')).toEqual(author);
    expect(formatSignature(author)).toBe('A U Thor <author@example.com> 1112911993 -0700');
  });

  it.each([
    ['odd spacing', 'A  U Thor   <author@example.com>  1112911993   -0700', { ...author, name: 'A  U Thor' }],
    ['no name', '<author@example.com> 1112911993 -0700', { ...author, name: '' }],
    ['no zone', 'A U Thor <author@example.com> 1112911993', { ...author, time: 0, tz: '+0000' }],
    ['a long zone', 'A U Thor <author@example.com> 1112911993 +05730', { ...author, tz: '+05730' }],
    ['a > in the email', 'A <a>b@example.com> 1 +0000', { name: 'A', email: 'a>b@example.com', time: 1, tz: '+0000' }],
    ['no email at all', 'Someone', { name: 'Someone', email: '', time: 0, tz: '+0000' }],
  ])('keeps a line with %s to write it back as it was', (_, line, fields) => {
    const signature = parseSignature(line);
    expect(signature).toEqual({ ...fields, raw: line });
    expect(formatSignature(signature)).toBe(line);
  });

  it('writes the fields afresh once one changed', () => {
    const odd = parseSignature('A  U Thor   <author@example.com>  1112911993   -0700');
    expect(formatSignature({ ...odd, time: 1600000000, tz: '+0200' })).toBe('A  U Thor <author@example.com> 1600000000 +0200');
  });

  it.each([
    [{ name: 'A <B>' }, /invalid identity/],
    [{ email: 'a\nb' }, /invalid identity/],
    [{ time: -1 }, /invalid signature time/],
    [{ time: 1.5 }, /invalid signature time/],
    [{ tz: '0200' }, /invalid signature zone/],
  ])('refuses %j', (change, error) => {
    expect(() => formatSignature({ ...author, ...change })).toThrow(error);
  });
});

describe('commits', () => {
  const commit: Commit = {
    tree: EMPTY_TREE,
    parents: [],
    author: { name: 'A U Thor', email: 'author@example.com', time: 1112911993, tz: '-0700' },
    committer: { name: 'C O Mitter', email: 'committer@example.com', time: 1112912053, tz: '-0700' },
    headers: [],
    message: bytes('Initial commit\n'),
  };

  it('encodes as git commit-tree wrote it', async () => {
    const body = encodeCommit(commit);
    expect(text(body)).toBe(
      `tree ${EMPTY_TREE}\n` +
        'author A U Thor <author@example.com> 1112911993 -0700\n' +
        'committer C O Mitter <committer@example.com> 1112912053 -0700\n' +
        '\nInitial commit\n',
    );
    expect(await hashObject('commit', body)).toBe('07aa2d0808984a15395272a831194def44801887');
    expect(decodeCommit(body)).toEqual(commit);
  });

  it('keeps parents, multi-line headers and a message without newline exactly', () => {
    const raw = [
      `tree ${EMPTY_TREE}`,
      `parent ${OID_A}`,
      `parent ${OID_B}`,
      'author A U Thor <author@example.com> 1112911993 -0700',
      'committer C O Mitter <committer@example.com> 1112912053 -0700',
      `mergetag object ${OID_B}`,
      ' type commit',
      ' tag v1',
      ' tagger C O Mitter <committer@example.com> 1112912113 -0700',
      ' ',
      ' Release',
      ' -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' iQEzBAABCAAdFiEE',
      ' -----END PGP SIGNATURE-----',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' wsBcBAABCAAQBQJf',
      ' -----END PGP SIGNATURE-----',
      ' ',
      'x-empty ',
      '',
      "Merge tag 'v1'",
    ].join('\n');
    const decoded = decodeCommit(bytes(raw));
    expect(decoded.parents).toEqual([OID_A, OID_B]);
    expect(decoded.headers.map(([n]) => n)).toEqual(['mergetag', 'gpgsig', 'x-empty']);
    expect(decoded.headers[1]).toEqual(['gpgsig', '-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJf\n-----END PGP SIGNATURE-----\n']);
    expect(decoded.headers[0]![1]).toContain('\ntag v1\ntagger C O Mitter');
    expect(decoded.headers[2]).toEqual(['x-empty', '']);
    expect(text(decoded.message)).toBe("Merge tag 'v1'");
    expect(text(encodeCommit(decoded))).toBe(raw);
  });

  it('reads the message in the charset of its encoding header', () => {
    const latin1: Commit = { ...commit, headers: [['encoding', 'ISO-8859-1']], message: Uint8Array.of(0x43, 0x61, 0x66, 0xe9, 0x0a) };
    expect(messageText(latin1)).toBe('Café\n');
    expect(title(latin1)).toBe('Café');
    expect(decodeCommit(encodeCommit(latin1))).toEqual(latin1);
    expect(messageText({ ...latin1, headers: [['encoding', 'no-such-charset']] })).toBe('Caf\ufffd\n');
  });

  it('keeps an author line with odd spacing and non-UTF-8 bytes', () => {
    const raw = Uint8Array.from([
      ...bytes(`tree ${EMPTY_TREE}\nauthor Zo`),
      0xeb,
      ...bytes('  <zoe@example.com>  1112911993 -0700\ncommitter <nobody@example.com> 1 +0000\n\nm\n'),
    ]);
    const decoded = decodeCommit(raw);
    expect(decoded.author).toMatchObject({ name: 'Zo\udceb', email: 'zoe@example.com', time: 1112911993, tz: '-0700' });
    expect(decoded.committer).toMatchObject({ name: '', email: 'nobody@example.com', time: 1, tz: '+0000' });
    expect(encodeCommit(decoded)).toEqual(raw);
  });

  it.each([
    ['', 'No commit message'],
    [' \n\t\n', 'No commit message'],
    ['Fix it\n\nBecause.\n', 'Fix it'],
    ['Windows line\r\nbody', 'Windows line'],
    [`${'x'.repeat(99)}\n`, 'x'.repeat(99)],
    [`${'word '.repeat(24)}end`, `${'word '.repeat(14)}word...`],
    ['y'.repeat(120), `${'y'.repeat(78)}...`],
  ])('title of %j is %j', (message, expected) => {
    expect(title({ ...commit, message: bytes(message) })).toBe(expected);
  });

  it.each([
    ['no blank line', `tree ${EMPTY_TREE}\n`, /no blank line/],
    ['no tree', 'author A <a> 1 +0000\ncommitter A <a> 1 +0000\n\n', /no tree/],
    ['a short parent', `tree ${EMPTY_TREE}\nparent abc\n\n`, /parent "abc"/],
    ['no committer', `tree ${EMPTY_TREE}\nauthor A <a> 1 +0000\n\n`, /no author or committer/],
    ['a header line without a value', `tree ${EMPTY_TREE}\nauthor A <a> 1 +0000\ncommitter A <a> 1 +0000\nodd\n\n`, /header line "odd"/],
  ])('refuses a commit with %s', (_, raw, error) => {
    expect(() => decodeCommit(bytes(raw))).toThrow(error);
  });

  it('refuses to encode a bad id or header name', () => {
    expect(() => encodeCommit({ ...commit, parents: ['HEAD'] })).toThrow(/invalid object id/);
    expect(() => encodeCommit({ ...commit, headers: [['two words', 'x']] })).toThrow(/invalid header name/);
  });
});

describe('tags', () => {
  const tag: Tag = {
    object: '07aa2d0808984a15395272a831194def44801887',
    type: 'commit',
    tag: 'v1',
    tagger: { name: 'C O Mitter', email: 'committer@example.com', time: 1112912113, tz: '-0700' },
    headers: [],
    message: bytes('Release\n'),
  };

  it('encodes as git tag -a wrote it', async () => {
    const body = encodeTag(tag);
    expect(await hashObject('tag', body)).toBe('e1344ab12678096496d5496a2338e96f539e3eb2');
    expect(decodeTag(body)).toEqual(tag);
  });

  it('keeps a signature in the message and a tag without tagger', () => {
    const signed = bytes('Release\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n');
    const withSignature = { ...tag, message: signed };
    expect(decodeTag(encodeTag(withSignature))).toEqual(withSignature);
    const old = bytes(`object ${OID_A}\ntype blob\ntag ancient\n\nno tagger\n`);
    const decoded = decodeTag(old);
    expect(decoded).toEqual({ object: OID_A, type: 'blob', tag: 'ancient', headers: [], message: bytes('no tagger\n') });
    expect(encodeTag(decoded)).toEqual(old);
  });

  it.each([
    ['no object', 'type commit\ntag v1\n\n', /no object/],
    ['a bad type', `object ${OID_A}\ntype branch\ntag v1\n\n`, /no type/],
    ['no name', `object ${OID_A}\ntype commit\n\n`, /no tag name/],
  ])('refuses a tag with %s', (_, raw, error) => {
    expect(() => decodeTag(bytes(raw))).toThrow(error);
  });
});
