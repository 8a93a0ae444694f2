// Rack's nested parameter names (Rack::QueryParser#normalize_params, Rack 2.2 as GitLab 13.6 runs it), the one
// reading of form and query names: `a[]=1&a[]=2` is an Array, `a[k][j]=v` a Hash of Hashes, and `a[][k]=..&a[][j]=..`
// an Array of Hashes where a name already set in the last Hash starts the next one (what the Ruby gem sends for
// commit `actions` and pipeline `variables`). Hand-written: no library in package.json reads Rack's syntax (`qs`
// differs on `a[][k]`), and it is small.

/** A name that is a value in one place and an Array or a Hash in another (Rack::Utils::ParameterTypeError), or nested past Rack's depth limit. */
export class MalformedParams extends Error {}

/** Rack's param_depth_limit. */
const DEPTH_LIMIT = 100;

export type Params = Record<string, unknown>;

const newHash = (): Params => Object.create(null) as Params;
const isHash = (v: unknown): v is Params =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob) && Object.getPrototypeOf(v) === null;

/** Rack's params_hash_has_key?: whether `a[b]` names something already set in `hash` (a name with `[]` never does). */
function hasKey(hash: Params, key: string): boolean {
  if (key.includes('[]')) return false;
  let node: unknown = hash;
  for (const part of key.split(/[[\]]+/)) {
    if (part === '') continue;
    if (!isHash(node) || !Object.hasOwn(node, part)) return false;
    node = node[part];
  }
  return true;
}

/** Rack::QueryParser#normalize_params: sets `name` (with its brackets) to `value` inside `params`. */
function normalize(params: Params, name: string, value: unknown, depth: number): Params | unknown[] | undefined {
  if (depth <= 0) throw new MalformedParams('exceeded the parameter depth limit');
  const m = /^[[\]]*([^[\]]+)\]*/.exec(name);
  const k = m?.[1] ?? '';
  const after = m ? name.slice(m[0].length) : '';
  if (k === '') return name === '[]' ? [value] : undefined;

  if (after === '') params[k] = value;
  else if (after === '[') params[name] = value;
  else if (after === '[]') {
    const list = (params[k] ??= []);
    if (!Array.isArray(list)) throw new MalformedParams(`expected Array for param \`${k}'`);
    list.push(value);
  } else {
    const child = /^\[\]\[([^[\]]+)\]$/.exec(after)?.[1] ?? /^\[\](.+)$/.exec(after)?.[1];
    if (child !== undefined) {
      const list = (params[k] ??= []);
      if (!Array.isArray(list)) throw new MalformedParams(`expected Array for param \`${k}'`);
      const last: unknown = list.at(-1);
      if (isHash(last) && !hasKey(last, child)) normalize(last, child, value, depth - 1);
      else list.push(normalize(newHash(), child, value, depth - 1));
    } else {
      const hash = (params[k] ??= newHash());
      if (!isHash(hash)) throw new MalformedParams(`expected Hash for param \`${k}'`);
      params[k] = normalize(hash, after, value, depth - 1);
    }
  }
  return params;
}

/**
 * Name/value pairs in order (a query string's or a form body's), nested as Rack nests them; a plain name given twice
 * keeps its last value. Throws MalformedParams where Rack raises.
 */
export function nestPairs(pairs: Iterable<readonly [string, unknown]>): Params {
  const params = newHash();
  for (const [name, value] of pairs) normalize(params, name, value, DEPTH_LIMIT);
  return params;
}
