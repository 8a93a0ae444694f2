// The messages GitLab 13.6 writes when it merges (app/models/merge_request.rb): MergeRequest#default_merge_commit_message
// and #default_squash_commit_message, and the references they hold (Issue#to_reference relative to the target
// project, MergeRequest#to_reference(full: true)). Pure: the caller gives paths, titles and the closing issues
// (visible_closing_issues_for, i.e. those the merge request's author can read).

/** Rails' Array#to_sentence with its English defaults: "a", "a and b", "a, b, and c". */
export function toSentence(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  if (words.length === 2) return `${words[0]} and ${words[1]}`;
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`;
}

const namespaceOf = (fullPath: string) => fullPath.slice(0, Math.max(0, fullPath.lastIndexOf('/')));
const lastSegment = (fullPath: string) => fullPath.slice(fullPath.lastIndexOf('/') + 1);

/**
 * Project#to_reference_base(from): nothing within the project, the project's path within its namespace, the full
 * path across namespaces (paths compared case-insensitively, as GitLab finds routes).
 */
function referenceBase(projectPath: string, fromPath: string): string {
  if (projectPath.toLowerCase() === fromPath.toLowerCase()) return '';
  if (namespaceOf(projectPath).toLowerCase() === namespaceOf(fromPath).toLowerCase()) return lastSegment(projectPath);
  return projectPath;
}

/** Issue#to_reference(from): `#1`, `sibling#1` or `group/project#1`. */
export const issueReference = (issue: { projectPath: string; iid: number }, fromProjectPath: string) =>
  `${referenceBase(issue.projectPath, fromProjectPath)}#${issue.iid}`;

/** MergeRequest#to_reference(full: true): `group/project!1`. */
export const mergeRequestFullReference = (mr: { projectPath: string; iid: number }) => `${mr.projectPath}!${mr.iid}`;

export interface MergeMessageInput {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  iid: number;
  /** The target project's full path. */
  targetProjectPath: string;
  /** The issues it closes that its author can see, in GitLab's order. */
  closingIssues: ReadonlyArray<{ projectPath: string; iid: number }>;
}

/** The message's facts from a merge request as its views carry it: the MR row and its target project's path. */
export const mergeMessageInput = (
  v: { mr: { sourceBranch: string; targetBranch: string; title: string; iid: number }; projectPath: string },
  closingIssues: MergeMessageInput['closingIssues'] = [],
): MergeMessageInput => ({
  sourceBranch: v.mr.sourceBranch,
  targetBranch: v.mr.targetBranch,
  title: v.mr.title,
  iid: v.mr.iid,
  targetProjectPath: v.projectPath,
  closingIssues,
});

/**
 * MergeRequest#default_merge_commit_message (include_description: false, the merge API's default): the merge line,
 * the title, "Closes ..." when it closes issues, and "See merge request ...", joined by blank lines.
 */
export function defaultMergeCommitMessage(mr: MergeMessageInput): string {
  const closes = mr.closingIssues.map((issue) => issueReference(issue, mr.targetProjectPath));
  return [
    `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`,
    mr.title,
    ...(closes.length ? [`Closes ${toSentence(closes)}`] : []),
    `See merge request ${mergeRequestFullReference({ projectPath: mr.targetProjectPath, iid: mr.iid })}`,
  ].join('\n\n');
}

/** MergeRequest#default_squash_commit_message: the title. */
export const defaultSquashCommitMessage = (mr: { title: string }) => mr.title;
