// Build::Rules::Rule::Clause::Exists (GitLab 13.6): `rules:exists` holds when one of its globs names a file of the
// pipeline's commit. Globs without a metacharacter compare as exact paths; the others are matched as fnmatch globs
// (glob.ts), and after MAX_PATTERN_COMPARISONS comparisons the clause gives up and holds, as GitLab's does, so a
// large repository costs a bounded amount of matching.
import { globMatch } from './glob.ts';

export const MAX_PATTERN_COMPARISONS = 10_000;

/** Matches only files at the top of the tree (GitLab then reads only the root tree's blobs). */
export const topLevelGlob = (glob: string) => !glob.includes('/') && !glob.includes('**');

/** No metacharacter of File.fnmatch: the glob is a path. */
const exactGlob = (glob: string) => !/[*?[{]/.test(glob);

/** Clause::Exists#satisfied_by? over the commit's file paths (every blob, directories walked). */
export function existsSatisfied(globs: readonly string[], files: readonly string[]): boolean {
  const paths = globs.every(topLevelGlob) ? files.filter((f) => !f.includes('/')) : files;
  if (globs.some((g) => exactGlob(g) && paths.includes(g))) return true;
  let comparisons = 0;
  return globs.some((g) => !exactGlob(g) && paths.some((p) => ++comparisons > MAX_PATTERN_COMPARISONS || globMatch(g, p)));
}
