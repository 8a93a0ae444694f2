// GitLab 13.6's default merge and squash commit messages (MergeRequest#default_merge_commit_message and
// #default_squash_commit_message) and the references in them.
import { describe, expect, it } from 'vitest';
import {
  defaultMergeCommitMessage,
  defaultSquashCommitMessage,
  issueReference,
  mergeRequestFullReference,
  toSentence,
} from '../../../functions/merge-requests/merge-messages.ts';

const mr = { sourceBranch: 'feature', targetBranch: 'master', title: 'Add the thing', iid: 7, targetProjectPath: 'group/project', closingIssues: [] };

describe('merge messages', () => {
  it.each([
    [[], ''],
    [['#1'], '#1'],
    [['#1', '#2'], '#1 and #2'],
    [['#1', '#2', '#3'], '#1, #2, and #3'],
  ])('to_sentence %j is %j', (words, sentence) => {
    expect(toSentence(words)).toBe(sentence);
  });

  it.each([
    ['group/project', 3, '#3'],
    ['Group/Project', 3, '#3'],
    ['group/sibling', 4, 'sibling#4'],
    ['other/project', 5, 'other/project#5'],
    ['group/sub/project', 6, 'group/sub/project#6'],
  ])('an issue of %s is %j from the target project', (projectPath, iid, reference) => {
    expect(issueReference({ projectPath, iid }, 'group/project')).toBe(reference);
  });

  it('the merge request reference is full', () => {
    expect(mergeRequestFullReference({ projectPath: 'group/sub/project', iid: 12 })).toBe('group/sub/project!12');
  });

  it('a merge commit message without closing issues', () => {
    expect(defaultMergeCommitMessage(mr)).toBe("Merge branch 'feature' into 'master'\n\nAdd the thing\n\nSee merge request group/project!7");
  });

  it('a merge commit message that closes issues', () => {
    const closingIssues = [
      { projectPath: 'group/project', iid: 1 },
      { projectPath: 'group/other', iid: 2 },
      { projectPath: 'elsewhere/project', iid: 3 },
    ];
    expect(defaultMergeCommitMessage({ ...mr, closingIssues })).toBe(
      "Merge branch 'feature' into 'master'\n\nAdd the thing\n\nCloses #1, other#2, and elsewhere/project#3\n\nSee merge request group/project!7",
    );
    expect(defaultMergeCommitMessage({ ...mr, closingIssues: closingIssues.slice(0, 1) })).toContain('\n\nCloses #1\n\n');
  });

  it('the squash commit message is the title', () => {
    expect(defaultSquashCommitMessage(mr)).toBe('Add the thing');
  });
});
