// Reading the YAML text as GitLab's Gitlab::Config::Loader::Yaml does (Psych safe_load with aliases): anchors,
// aliases and `<<` merge keys, keys as given. The yaml package's errors are reworded to Psych's shape
// ("(<unknown>): <problem> at line L column C"); the problem text is the yaml package's own, not libyaml's.
import { parseDocument } from 'yaml';

export type LoadResult = { ok: true; value: unknown } | { ok: false; error: string };

/** GitLab's limit on the YAML's size (Gitlab::Config::Loader::Yaml::MAX_YAML_SIZE, 1 MB) is checked by the caller. */
export function loadYaml(text: string): LoadResult {
  const doc = parseDocument(text, { merge: true, uniqueKeys: false });
  const [error] = doc.errors;
  if (error) {
    const problem = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const [at] = error.linePos ?? [];
    return { ok: false, error: at ? `(<unknown>): ${lowerFirst(problem)} at line ${at.line} column ${at.col}` : `(<unknown>): ${lowerFirst(problem)}` };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (e) {
    // An alias bomb (billion laughs) or an alias to nothing: Psych's "Alias parsing was not enabled"-style refusal.
    return { ok: false, error: `(<unknown>): ${lowerFirst((e as Error).message.split('\n')[0]!)}` };
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
