// The transport's pure pieces: git's delta format (patch-delta.c's checks), keepalives while a pack is planned, push
// option parsing (Gitlab::PushOptions) and the framed alert GitLab prints after a push.
import { describe, expect, it } from 'vitest';
import { applyDelta, createDelta, DeltaError } from '../../functions/repositories/git/delta.ts';
import { ofsOffset } from '../../functions/repositories/transport/pack.ts';
import { keepalive } from '../../functions/repositories/transport/upload-pack.ts';
import { alert, parsePushOptions } from '../../functions/repositories/transport/post-receive.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('applyDelta', () => {
  const base = bytes('hello, world\n');
  it('copies and inserts as the instructions say', () => {
    // base size 13, result size 19; copy offset 0 size 7 ("hello, "), insert "there, ", copy offset 7 size 5 ("world").
    const delta = Uint8Array.of(13, 19, 0x90, 7, 7, ...bytes('there, '), 0x91, 7, 5);
    expect(text(applyDelta(base, delta))).toBe('hello, there, world');
  });
  it.each([
    ['a base of another size', Uint8Array.of(12, 1, 1, 0x61), 'delta base size mismatch'],
    ['a copy past the base', Uint8Array.of(13, 20, 0x91, 0, 20), 'delta replay has gone wild'],
    ['the reserved opcode 0', Uint8Array.of(13, 1, 0, 0x61), 'unexpected delta opcode 0'],
    ['fewer bytes than the result size', Uint8Array.of(13, 5, 2, 0x61, 0x62), 'delta replay has gone wild'],
  ])('refuses %s', (_, delta, message) => {
    expect(() => applyDelta(base, delta)).toThrow(new DeltaError(message));
  });
});

describe('createDelta', () => {
  // A tree-like body: 100 entries of a name and a 20-byte id; a new version changes one id.
  const tree = (changed: number, id: number) =>
    Uint8Array.from(
      Array.from({ length: 100 }, (_, i) => [
        ...bytes(`100644 file${i}.txt\0`),
        ...Array.from({ length: 20 }, (_, k) => (i * 31 + k * 7 + (i === changed ? id : 0)) & 0xff),
      ]).flat(),
    );
  it('makes a delta applyDelta turns back into the target: a changed entry is a copy, an insert and a copy', () => {
    const base = tree(-1, 0);
    const target = tree(40, 99);
    const delta = createDelta(base, target)!;
    expect(applyDelta(base, delta)).toEqual(target);
    expect(delta.length).toBeLessThan(40);
  });
  it('finds moved and repeated blocks, and inserts across its 127-byte limit', () => {
    const base = bytes('0123456789abcdef'.repeat(8) + 'the quick brown fox jumps over the lazy dog');
    const target = bytes('the quick brown fox jumps over the lazy dog' + 'x'.repeat(200) + '0123456789abcdef'.repeat(16));
    expect(text(applyDelta(base, createDelta(base, target)!))).toBe(text(target));
  });
  it('gives none when it would not save half the target', () => {
    expect(createDelta(bytes('a'.repeat(64)), bytes('b'.repeat(64)))).toBeNull();
    expect(createDelta(bytes('short'), bytes('short'))).toBeNull();
  });
});

describe('ofsOffset', () => {
  // gitformat-pack: each byte but the last has its MSB set, and every continuation adds one before shifting.
  it.each([
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x00]],
    [16511, [0xff, 0x7f]],
    [16512, [0x80, 0x80, 0x00]],
  ])('encodes %i as git does', (distance, encoded) => {
    expect([...ofsOffset(distance)]).toEqual(encoded);
  });
});

describe('keepalive', () => {
  it('sends an empty side-band 1 packet each interval until the work is done, then hands over its result', async () => {
    const out: { value?: string } = {};
    const sent: string[] = [];
    const work = new Promise<string>((resolve) => setTimeout(() => resolve('plan'), 75));
    for await (const packet of keepalive(work, out, 20)) sent.push(text(packet));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set(['0005\x01']));
    expect(out.value).toBe('plan');
  });
  it('sends nothing for work done at once', async () => {
    const out: { value?: number } = {};
    const sent: Uint8Array[] = [];
    for await (const packet of keepalive(Promise.resolve(1), out, 20)) sent.push(packet);
    expect([sent, out.value]).toEqual([[], 1]);
  });
});

describe('push options', () => {
  it('reads ci.skip and the merge_request options (mr. is an alias), ignores unknown ones, the last value wins', () => {
    expect(
      parsePushOptions([
        'ci.skip',
        'ci.variable=A=1',
        'ci.variable=A=1',
        'ci.variable=B=x=y',
        'ci.variable=bad',
        'mr.create',
        'merge_request.target=main',
        'merge_request.title= First ',
        'merge_request.title=Second',
        'mr.label=a',
        'mr.label=b',
        'merge_request.unlabel=c',
        'foo.bar=1',
        'nonsense',
      ]),
    ).toEqual({
      ciSkip: true,
      ciVariables: [
        { key: 'A', value: '1' },
        { key: 'B', value: 'x=y' },
      ],
      mergeRequest: { create: true, target: 'main', title: 'Second', labels: ['a', 'b'], unlabels: ['c'] },
      given: [
        'ci.skip',
        'ci.variable=A=1',
        'ci.variable=A=1',
        'ci.variable=B=x=y',
        'ci.variable=bad',
        'mr.create',
        'merge_request.target=main',
        'merge_request.title= First ',
        'merge_request.title=Second',
        'mr.label=a',
        'mr.label=b',
        'merge_request.unlabel=c',
        'foo.bar=1',
        'nonsense',
      ],
    });
  });
});

describe('alert', () => {
  it('frames the words in lines of at most 68 characters, each centred in 72', () => {
    const out = alert('WARNINGS:\nsome words');
    expect(out).toBe(`${'='.repeat(72)}\n\n${' '.repeat(26)}WARNINGS: some words\n\n${'='.repeat(72)}\n`);
  });
});
