// functions/merge-requests/positions.ts and position-schemas.ts: where a diff note sits (GitLab 13.6's
// Gitlab::Diff::Position), over real diffs rendered by functions/repositories (pure: no app, no database).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { ChangedPath } from '../../../db/queries/repositories/diffs.ts';
import { PositionInput } from '../../../functions/merge-requests/position-schemas.ts';
import { nestPairs } from '../../../functions/lib/rack-params.ts';
import {
  fromGraphqlImagePosition,
  fromGraphqlTextPosition,
  graphqlDiffPosition,
  locateTextPosition,
  positionDiffFile,
  positionErrors,
  positionJson,
  toStoredPosition,
  type ImagePosition,
  type StoredPosition,
  type TextPosition,
} from '../../../functions/merge-requests/positions.ts';
import { toValidationError } from '../../../functions/lib/validate.ts';
import { restError } from '../../../functions/rest-errors.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
/** `n` lines `<word> i`, with `edit` replacing (or, with null, dropping) some of them. */
const text = (n: number, word: string, edit: Record<number, string | null> = {}) =>
  Array.from({ length: n }, (_, i) => (i + 1 in edit ? edit[i + 1] : `${word} ${i + 1}`))
    .filter((l) => l !== null)
    .map((l) => `${l}\n`)
    .join('');
const side = (content: string | Uint8Array) => {
  const data = typeof content === 'string' ? enc(content) : content;
  return { mode: '100644', oid: sha1(new TextDecoder().decode(data)), data };
};
const change = (path: string, before: string | Uint8Array | null, after: string | Uint8Array | null): ChangedPath => ({
  key: 0,
  path: enc(path),
  old: before === null ? null : side(before),
  new: after === null ? null : side(after),
});

// a.txt's diff (git's, as functions/repositories/diffs/text.ts renders it):
// @@ -2,7 +2,8 @@ line 1          / line 2..4 / -line 5 / +five / +five and a half / line 6..8
// @@ -12,10 +13,10 @@ line 11     / line 12..14 / -line 15 / line 16..18 / +extra / line 19..21
const CHANGED: ChangedPath[] = [
  change('a.txt', text(30, 'line'), text(30, 'line', { 5: 'five\nfive and a half', 15: null, 18: 'line 18\nextra' })),
  change('added.txt', null, 'one\ntwo\n'),
  change('docs/new.md', null, text(10, 'row', { 5: 'ROW 5' })),
  change('docs/old.md', text(10, 'row'), null),
  change('gone.txt', 'a\nb\nc\n', null),
  change('logo.png', null, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])),
];

const REFS = { base_sha: 'b'.repeat(40), start_sha: 's'.repeat(40), head_sha: 'h'.repeat(40) };
const textAt = (old_path: string | null, new_path: string | null, old_line: number | null, new_line: number | null): TextPosition => ({
  ...REFS,
  old_path,
  new_path,
  position_type: 'text',
  old_line,
  new_line,
  line_range: null,
});
const imageAt = (path: string, box: Partial<Pick<ImagePosition, 'width' | 'height' | 'x' | 'y'>>): ImagePosition => ({
  ...REFS,
  old_path: path,
  new_path: path,
  position_type: 'image',
  width: box.width ?? null,
  height: box.height ?? null,
  x: box.x ?? null,
  y: box.y ?? null,
});

async function lineCode(p: TextPosition) {
  return (await locateTextPosition(positionDiffFile(CHANGED, p), p))?.lineCode ?? null;
}

describe('locateTextPosition', () => {
  const a = sha1('a.txt');
  it.each([
    ['an added line (new_line only)', textAt('a.txt', 'a.txt', null, 5), `${a}_6_5`],
    ['the second added line', textAt('a.txt', 'a.txt', null, 6), `${a}_6_6`],
    ['a removed line (old_line only)', textAt('a.txt', 'a.txt', 5, null), `${a}_5_5`],
    ['a context line in a hunk', textAt('a.txt', 'a.txt', 7, 8), `${a}_7_8`],
    ['a removed line in the second hunk', textAt('a.txt', 'a.txt', 15, null), `${a}_15_16`],
    ['an added line in the second hunk', textAt('a.txt', 'a.txt', null, 19), `${a}_19_19`],
    ['the last context line', textAt('a.txt', 'a.txt', 21, 22), `${a}_21_22`],
    ['a context line with the wrong new line', textAt('a.txt', 'a.txt', 7, 7), null],
    ['a context line given by its new line only', textAt('a.txt', 'a.txt', null, 8), null],
    ['a removed line given with a new line', textAt('a.txt', 'a.txt', 5, 5), null],
    ['no line at all', textAt('a.txt', 'a.txt', null, null), null],
    // LinesUnfolder: unchanged lines outside the hunks, numbered with the next hunk's offset (or the last line's).
    ['an unchanged line between hunks (unfolded)', textAt('a.txt', 'a.txt', 10, 11), `${a}_10_11`],
    ['between hunks with the wrong offset', textAt('a.txt', 'a.txt', 10, 10), null],
    ['an unchanged line above the first hunk', textAt('a.txt', 'a.txt', 1, 1), `${a}_1_1`],
    ['an unchanged line below the last hunk', textAt('a.txt', 'a.txt', 27, 28), `${a}_27_28`],
    ['a line past the end of the old file', textAt('a.txt', 'a.txt', 31, 32), null],
    ['a path the diff does not touch', textAt('b.txt', 'b.txt', 1, 1), null],
  ])('%s', async (_, position, expected) => {
    expect(await lineCode(position)).toBe(expected);
  });

  it('codes a renamed file by its new path, when both paths are given', async () => {
    expect(await lineCode(textAt('docs/old.md', 'docs/new.md', 5, null))).toBe(`${sha1('docs/new.md')}_5_5`);
    expect(await lineCode(textAt('docs/old.md', 'docs/new.md', 4, 4))).toBe(`${sha1('docs/new.md')}_4_4`);
  });

  it('sees only an added file when a rename is given by its new path alone (Gitaly diffs the given paths)', async () => {
    expect(await lineCode(textAt(null, 'docs/new.md', 4, 4))).toBeNull();
    expect(await lineCode(textAt(null, 'docs/new.md', null, 4))).toBe(`${sha1('docs/new.md')}_0_4`);
  });

  it('finds removed lines of a deleted file, and never unfolds one', async () => {
    expect(await lineCode(textAt('gone.txt', 'gone.txt', 2, null))).toBe(`${sha1('gone.txt')}_2_0`);
    expect(await lineCode(textAt('gone.txt', 'gone.txt', 2, 2))).toBeNull();
  });

  it('finds added lines of a new file', async () => {
    expect(await lineCode(textAt('added.txt', 'added.txt', null, 2))).toBe(`${sha1('added.txt')}_0_2`);
  });

  it('has no file to look in when the diff is unknown', async () => {
    expect(await locateTextPosition(null, textAt('a.txt', 'a.txt', null, 5))).toBeNull();
  });
});

describe('positionErrors', () => {
  it.each<[string, StoredPosition, string | null, Record<string, string[]>]>([
    ['a text position on a line', textAt('a.txt', 'a.txt', null, 5), 'abc_6_5', {}],
    ['a text position off the diff', textAt('a.txt', 'a.txt', 9, 9), null, { line_code: ["can't be blank", 'must be a valid line code'] }],
    [
      'a text position with no line',
      textAt('a.txt', 'a.txt', null, null),
      null,
      { line_code: ["can't be blank", 'must be a valid line code'], position: ['is incomplete'] },
    ],
    ['a text position with no path', textAt(null, ' ', 1, 1), 'abc_1_1', { position: ['is incomplete'] }],
    ['a text position with a blank head_sha', { ...textAt('a.txt', 'a.txt', 1, 1), head_sha: '' }, 'abc_1_1', { position: ['is incomplete'] }],
    ['an image position on any path', imageAt('nowhere.png', { width: 10, height: 10, x: 0, y: 0 }), null, {}],
    ['an image position without a coordinate', imageAt('logo.png', { width: 10, height: 10, x: 1 }), null, { position: ['is incomplete'] }],
  ])('%s', (_, position, code, expected) => {
    expect(positionErrors(position, code)).toEqual(expected);
  });
});

describe('REST input', () => {
  const Body = z.object({ position: z.optional(z.nullable(PositionInput())) });
  const parse = (input: Record<string, unknown>) => {
    const r = Body.safeParse(nestPairs(Object.entries(input)));
    return r.success ? { ok: r.data.position } : { body: restError(toValidationError(r.error.issues)).body };
  };

  it('reads form fields into a text position, Integers coerced and blanks nil', () => {
    const r = parse({
      'position[base_sha]': 'b1',
      'position[start_sha]': 's1',
      'position[head_sha]': 'h1',
      'position[position_type]': 'text',
      'position[new_path]': 'a.txt',
      'position[old_path]': 'a.txt',
      'position[new_line]': '18',
      'position[old_line]': '',
      'position[width]': '3',
      'position[line_range][start][line_code]': 'abc_1_2',
      'position[line_range][start][type]': 'new',
      'position[line_range][start][new_line]': 2,
      'position[line_range][end][line_code]': 'abc_1_3',
      'position[unknown]': 'dropped',
    });
    expect('ok' in r && r.ok && toStoredPosition(r.ok)).toEqual({
      base_sha: 'b1',
      start_sha: 's1',
      head_sha: 'h1',
      old_path: 'a.txt',
      new_path: 'a.txt',
      position_type: 'text',
      old_line: null,
      new_line: 18,
      line_range: { start: { line_code: 'abc_1_2', type: 'new', new_line: '2' }, end: { line_code: 'abc_1_3' } },
    });
  });

  it('reads a JSON image position, dropping the text fields', () => {
    const r = parse({
      position: {
        base_sha: 'b',
        start_sha: 's',
        head_sha: 'h',
        position_type: 'image',
        new_path: 'i.png',
        old_path: 'i.png',
        old_line: 4,
        width: 100,
        height: '50',
        x: 1,
        y: 2,
      },
    });
    expect('ok' in r && r.ok && toStoredPosition(r.ok)).toEqual({
      base_sha: 'b',
      start_sha: 's',
      head_sha: 'h',
      old_path: 'i.png',
      new_path: 'i.png',
      position_type: 'image',
      width: 100,
      height: 50,
      x: 1,
      y: 2,
    });
  });

  it.each([
    [{ 'position[start_sha]': 's', 'position[head_sha]': 'h', 'position[position_type]': 'text' }, 'position[base_sha] is missing'],
    [
      { 'position[base_sha]': 'b', 'position[start_sha]': 's', 'position[head_sha]': 'h' },
      'position[position_type] is missing, position[position_type] does not have a valid value',
    ],
    [
      { 'position[base_sha]': 'b', 'position[start_sha]': 's', 'position[head_sha]': 'h', 'position[position_type]': 'file' },
      'position[position_type] does not have a valid value',
    ],
    [
      { 'position[base_sha]': 'b', 'position[start_sha]': 's', 'position[head_sha]': 'h', 'position[position_type]': 'text', 'position[new_line]': 'x' },
      'position[new_line] is invalid',
    ],
    [{ position: 'text' }, 'position is invalid'],
  ])('refuses %j', (input, error) => {
    expect(parse(input)).toEqual({ body: { error } });
  });
});

describe('output', () => {
  const stored = textAt('a.txt', 'b.txt', null, 5);

  it('writes Entities::Note#position in the formatters key order', () => {
    expect(Object.keys(positionJson(stored))).toEqual([
      'base_sha',
      'start_sha',
      'head_sha',
      'old_path',
      'new_path',
      'position_type',
      'old_line',
      'new_line',
      'line_range',
    ]);
    const image = imageAt('i.png', { width: 1, height: 2, x: 3, y: 4 });
    expect(Object.keys(positionJson(image))).toEqual([
      'base_sha',
      'start_sha',
      'head_sha',
      'old_path',
      'new_path',
      'position_type',
      'width',
      'height',
      'x',
      'y',
    ]);
    // jsonb hands keys back sorted by length: the output order is rebuilt.
    const range = { end: { new_line: '3', line_code: 'c_1_3' }, start: { type: 'new', line_code: 'c_1_2' } };
    expect(JSON.stringify(positionJson({ ...stored, line_range: range }).line_range)).toBe(
      '{"start":{"line_code":"c_1_2","type":"new"},"end":{"line_code":"c_1_3","new_line":"3"}}',
    );
  });

  it('writes GraphQL DiffPosition, with filePath the new path or else the old one', () => {
    expect(graphqlDiffPosition(stored)).toEqual({
      diffRefs: { baseSha: REFS.base_sha, headSha: REFS.head_sha, startSha: REFS.start_sha },
      filePath: 'b.txt',
      oldPath: 'a.txt',
      newPath: 'b.txt',
      positionType: 'text',
      oldLine: null,
      newLine: 5,
      x: null,
      y: null,
      width: null,
      height: null,
    });
    expect(graphqlDiffPosition({ ...imageAt('i.png', { width: 1, height: 2, x: 3, y: 4 }), new_path: '' })).toMatchObject({
      filePath: 'i.png',
      oldLine: null,
      newLine: null,
      x: 3,
      y: 4,
      width: 1,
      height: 2,
    });
  });

  it('maps the GraphQL inputs to stored positions', () => {
    const refs = { headSha: 'h', startSha: 's', paths: { newPath: 'a.txt' } };
    expect(fromGraphqlTextPosition({ ...refs, newLine: 3 })).toEqual({
      base_sha: null,
      start_sha: 's',
      head_sha: 'h',
      old_path: null,
      new_path: 'a.txt',
      position_type: 'text',
      old_line: null,
      new_line: 3,
      line_range: null,
    });
    expect(fromGraphqlImagePosition({ ...refs, baseSha: 'b', x: 1, y: 2, width: 3, height: 4 })).toEqual({
      base_sha: 'b',
      start_sha: 's',
      head_sha: 'h',
      old_path: null,
      new_path: 'a.txt',
      position_type: 'image',
      width: 3,
      height: 4,
      x: 1,
      y: 2,
    });
  });
});
