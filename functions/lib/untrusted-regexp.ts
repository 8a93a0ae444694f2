// GitLab's UntrustedRegexp: user-supplied patterns are RE2 (linear time, no backtracking), never JavaScript RegExp.
// Checked with re2js (the RE2/J port); its error descriptions are mapped to the C++ RE2 texts GitLab shows
// (`RE2::Regexp#error`, "missing ): (abc").
import { RE2JS } from 're2js';

const RE2_TEXTS: Record<string, string> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'bad repetition operator',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'trailing backslash at end of expression': 'trailing \\',
};

/** RE2's error for the pattern ("missing ): (abc"), or null when it compiles. */
export function re2Error(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (e) {
    const { error, input } = e as { error?: string; input?: string; message?: string };
    if (!error) return String((e as Error).message ?? e);
    // RE2 (as GitLab 13.6 linked it) knows only `(?P<name>`: any other `(?<` is a Perl operator it does not support.
    if (error === 'invalid named capture' && input?.startsWith('(?<')) return 'invalid perl operator: (?<';
    const text = RE2_TEXTS[error] ?? error;
    return input ? `${text}: ${input}` : text;
  }
}
