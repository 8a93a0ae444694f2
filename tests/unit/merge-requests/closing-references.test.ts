// The default issue closing pattern (GitLab 13.6's ClosingIssueExtractor over config/gitlab.yml.example's
// issue_closing_pattern): which references a text closes, on a table of sentences that do and do not close.
import { describe, expect, it } from 'vitest';
import { closingIssueRefs, type ClosingIssueRef } from '../../../functions/merge-requests/closing-references.ts';

const BASE = 'https://gitlab.example.com';
const local = (...iids: number[]): ClosingIssueRef[] => iids.map((iid) => ({ projectPath: null, iid }));

describe('closingIssueRefs', () => {
  it.each<[string, ClosingIssueRef[]]>([
    ['Closes #1', local(1)],
    ['closes #1', local(1)],
    ['Closed #1', local(1)],
    ['Close #1', local(1)],
    ['fixes #2 and #3', local(2, 3)],
    ['Fix #2, #3, and #4', local(2, 3, 4)],
    ['fixing #2,#3', local(2, 3)],
    ['Fixed #9', local(9)],
    ['Resolves: group/p#4', [{ projectPath: 'group/p', iid: 4 }]],
    ['resolved other#4', [{ projectPath: 'other', iid: 4 }]],
    ['Implements #10', local(10)],
    ['implementing #10', local(10)],
    ['Closing issues #5, #6', local(5, 6)],
    ['Closes issue #5', local(5)],
    ['closes https://gitlab.example.com/g/p/-/issues/7', [{ projectPath: 'g/p', iid: 7 }]],
    ['closes https://gitlab.example.com/g/sub/p/issues/8.', [{ projectPath: 'g/sub/p', iid: 8 }]],
    ['Awesome (Fix #20, Fixes #21 and Closes #22). Related to #17 and fixes #18, #19 and #23.', local(20, 21, 22, 18, 19, 23)],
    ['Closes #1\n\nAlso closes #1 and #2', local(1, 2)],
    ['line one\nFixes   #3', local(3)],
  ])('%j closes %j', (text, expected) => {
    expect(closingIssueRefs(text, { baseUrl: BASE })).toEqual(expected);
  });

  it.each([
    'not closes#8',
    'closes #x',
    'closes #12abc',
    'CLOSES #1',
    'encloses #3',
    'Related to #17',
    'closes https://elsewhere.example.com/g/p/-/issues/7',
    'closes https://gitlab.example.com/g/p/-/merge_requests/7',
    'closes PROJ-123',
    'closes',
  ])('%j closes nothing', (text) => {
    expect(closingIssueRefs(text, { baseUrl: BASE })).toEqual([]);
  });

  it('resolves bare project references in the project namespace, and references to the project itself to null', () => {
    const refs = closingIssueRefs('Closes #1, sibling#2, group/proj#3, other/x#4 and https://gitlab.example.com/Group/Proj/-/issues/5', {
      baseUrl: `${BASE}/`,
      projectPath: 'group/proj',
    });
    expect(refs).toEqual([
      { projectPath: null, iid: 1 },
      { projectPath: 'group/sibling', iid: 2 },
      { projectPath: null, iid: 3 },
      { projectPath: 'other/x', iid: 4 },
      { projectPath: null, iid: 5 },
    ]);
  });

  it('stays linear on long runs of spaces', () => {
    const started = performance.now();
    expect(closingIssueRefs(`closes #1${' '.repeat(200_000)}x`, { baseUrl: BASE })).toEqual(local(1));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
