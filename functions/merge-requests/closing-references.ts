// The issues a merge request (or a commit) closes, as GitLab 13.6's Gitlab::ClosingIssueExtractor finds them: every
// match of the default `issue_closing_pattern` (config/gitlab.yml.example, "Automatic issue closing") with its
// %{issue_ref} standing for a link or an issue reference, then the issue references inside those matches
// (Gitlab::ReferenceExtractor: `#1`, `project#1`, `group/project#1`, and links to an issue of this instance).
// Which of them exist and are visible to the merge request's author is the caller's question.
//
// The pattern is fixed (not user-supplied), so it runs on the JavaScript engine rather than re2js: it needs a
// lookbehind (the link's end, path suffixes) that RE2 does not have.

// Gitlab::PathRegex: a path segment, never ending in .git or .atom; a namespace is up to 20 of them.
const SEGMENT = String.raw`[a-zA-Z0-9_.][a-zA-Z0-9_.\-]*(?<!\.git|\.atom)`;
const NAMESPACE = String.raw`(?:${SEGMENT}/){0,19}${SEGMENT}`;
// Project.reference_pattern: an optional namespace and a project path, not preceded by a path character.
const PROJECT_REF = String.raw`(?<![a-zA-Z0-9_.])(?:${NAMESPACE}/)?${SEGMENT}`;
// Issue.reference_pattern: `#` and the iid (Gitlab::Regex.issue: digits ending at a word boundary).
const ISSUE_REF = String.raw`(?:${PROJECT_REF})?#\d+\b`;
// Banzai::Filter::AutolinkFilter::LINK_PATTERN: a URL of any scheme, without trailing punctuation.
const LINK = String.raw`[a-z][a-z0-9+.\-]+://[^\s>]+(?<![?!.,:])`;

// The default issue_closing_pattern of 13.6, %{issue_ref} replaced as ClosingIssueExtractor::ISSUE_CLOSING_REGEX
// does. The trailing ([A-Z][A-Z0-9_]+-\d+) alternative is for external (JIRA-style) issues, which are not ours.
const CLOSING = new RegExp(
  String.raw`\b((?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ing|ed)?)(:?) +` +
    String.raw`(?:(?:issues? +)?(?:(?:${LINK})|(?:${ISSUE_REF}))(?:(?: *,? +and +| *,? *)?)|([A-Z][A-Z0-9_]+-\d+))+)`,
  'g',
);

// Inside a closing statement: each link or reference, in order (text inside a link is never a reference, as in
// Banzai, where reference filters skip link text and look at the link's target instead).
const TOKEN = new RegExp(String.raw`(?<link>${LINK})|(?<project>${PROJECT_REF})?#(?<iid>\d+)\b`, 'g');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Issue.link_reference_pattern: `<instance URL>/<full path>[/-]/issues/<iid>`, anything after the iid ignored. */
const issueUrl = (baseUrl: string) =>
  new RegExp(String.raw`^${escapeRegExp(baseUrl.replace(/\/+$/, ''))}/(?<project>${NAMESPACE}/${SEGMENT})(?:/-)?/issues/(?<iid>\d+)\b`);

export interface ClosingIssueRef {
  /** The project's full path; null for the project the text belongs to. */
  projectPath: string | null;
  iid: number;
}

export interface ClosingOptions {
  /** The instance's URL (Gitlab.config.gitlab.url): only links to it name issues. */
  baseUrl: string;
  /**
   * The full path of the project the text belongs to: a bare `project#1` is resolved in its namespace (as Banzai's
   * AbstractReferenceFilter does) and a reference to the project itself becomes null. Without it, paths are as written.
   */
  projectPath?: string | undefined;
}

/** The issues `text` closes, each once, in the order they are first named. */
export function closingIssueRefs(text: string, options: ClosingOptions): ClosingIssueRef[] {
  // Runs of spaces are one space to every part of the pattern (each space is ` *` or ` +`), and collapsing them keeps
  // the separators' nested quantifiers from backtracking quadratically over a long run.
  const statements = [...text.replace(/ {2,}/g, ' ').matchAll(CLOSING)].map((m) => m[0]);
  const url = issueUrl(options.baseUrl);
  const current = options.projectPath;
  const namespace = current?.includes('/') ? current.slice(0, current.lastIndexOf('/')) : undefined;
  const resolve = (path: string | undefined): string | null => {
    if (path === undefined) return null;
    const full = !path.includes('/') && namespace !== undefined ? `${namespace}/${path}` : path;
    // Paths are case-insensitive in GitLab (Routable.find_by_full_path).
    return current !== undefined && full.toLowerCase() === current.toLowerCase() ? null : full;
  };

  const seen = new Set<string>();
  const found: ClosingIssueRef[] = [];
  for (const statement of statements) {
    for (const token of statement.matchAll(TOKEN)) {
      const groups = token.groups!;
      let ref: ClosingIssueRef | undefined;
      if (groups.link !== undefined) {
        const m = url.exec(groups.link);
        if (m) ref = { projectPath: resolve(m.groups!.project), iid: Number(m.groups!.iid) };
      } else ref = { projectPath: resolve(groups.project), iid: Number(groups.iid) };
      if (!ref) continue;
      const key = `${ref.projectPath?.toLowerCase() ?? ''}#${ref.iid}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(ref);
    }
  }
  return found;
}
