// `extends` as GitLab 13.6's Gitlab::Ci::Config::Extendable: each job's bases (a name or a list, applied in order)
// are resolved recursively and deep-merged under the job (hashes merged key by key, anything else, arrays included,
// replaced by the job's value). More than 10 ancestors is "nesting too deep"; a loop is a circular dependency.
export const MAX_EXTENDS_NESTING = 10;

export class ExtendsError extends Error {}

type Hash = Record<string, unknown>;
export const isHash = (v: unknown): v is Hash => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ActiveSupport's Hash#deep_merge: `over` wins; nested hashes merge. */
export function deepMerge(base: Hash, over: Hash): Hash {
  const out: Hash = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isHash(out[k]) && isHash(v) ? deepMerge(out[k] as Hash, v) : v;
  return out;
}

/** Every hash entry of `config` with `extends` resolved; the `extends` key stays, as GitLab's merged YAML keeps it. */
export function resolveExtends(config: Hash): Hash {
  const done = new Map<string, Hash>();
  // Extendable::Entry#extend!: its checks in its order (unknown bases, non-hash bases, depth, loops).
  const resolve = (key: string, ancestors: string[]): Hash => {
    const cached = done.get(key);
    if (cached) return cached;
    const value = config[key] as Hash;
    if (!isHash(value) || !Object.hasOwn(value, 'extends')) return value;
    const ext = value.extends;
    // Ruby's Array(): a string is one base, a list its items (as text).
    const bases = Array.isArray(ext) ? ext.map(String) : [String(ext)];
    const unknown = bases.filter((b) => !Object.hasOwn(config, b));
    if (unknown.length) throw new ExtendsError(`${key}: unknown keys in \`extends\` (${unknown.join(', ')})`);
    const invalid = bases.filter((b) => !isHash(config[b]));
    if (invalid.length) throw new ExtendsError(`${key}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
    if (ancestors.length > MAX_EXTENDS_NESTING) throw new ExtendsError(`${key}: nesting too deep in \`extends\``);
    if (ancestors.includes(key)) throw new ExtendsError(`${key}: circular dependency detected in \`extends\``);
    let merged: Hash = {};
    for (const base of bases) merged = deepMerge(merged, resolve(base, [...ancestors, key]));
    const result = deepMerge(merged, value);
    done.set(key, result);
    return result;
  };
  const out: Hash = {};
  for (const [key, value] of Object.entries(config)) out[key] = isHash(value) && Object.hasOwn(value, 'extends') ? resolve(key, []) : value;
  return out;
}
