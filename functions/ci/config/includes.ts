// `include` as GitLab 13.6's Gitlab::Ci::Config::External::Processor: every included file is read and validated,
// then the included hashes are deep-merged in order and the including file is deep-merged over them (it wins).
// `template:` reads the shipped templates and `local:` the project's repository at the linted commit (when there is
// a project); `file`/`project` and `remote` would need another project or the network and answer an error naming
// the file instead of guessing.
import { deepMerge, isHash } from './extends.ts';
import { loadYaml } from './load.ts';

/** External::Context::MAX_INCLUDES. */
export const MAX_INCLUDES = 100;

export class IncludeError extends Error {}

type Hash = Record<string, unknown>;
/** Reads a shipped template by name without `.gitlab-ci.yml` (`Security/SAST`); null when there is none. */
export type TemplateReader = (name: string) => Promise<string | null>;
/** Reads a file of the project's repository at the configuration's commit; null when it is missing. */
export type LocalReader = (path: string) => Promise<string | null>;

export interface IncludeReaders {
  templates: TemplateReader;
  /** Absent: no project gives context (the instance-wide lint). */
  local?: LocalReader | undefined;
}

const TEMPLATE_SUFFIX = '.gitlab-ci.yml';

/** Mapper#normalize_location: a string is a remote URL or a local path. */
function locations(include: unknown): Hash[] {
  const list = Array.isArray(include) ? include : [include];
  return list.map((entry) => {
    if (typeof entry === 'string') return /^https?:\/\//.test(entry) ? { remote: entry } : { local: entry };
    if (isHash(entry)) return entry;
    throw new IncludeError('Included file is invalid');
  });
}

async function readOne(location: Hash, readers: IncludeReaders): Promise<string> {
  if (typeof location.template === 'string') {
    const name = location.template;
    if (!name.endsWith(TEMPLATE_SUFFIX)) throw new IncludeError(`Template file \`${name}\` is not a valid location!`);
    const content = await readers.templates(name.slice(0, -TEMPLATE_SUFFIX.length));
    if (!content) throw new IncludeError(`Included file \`${name}\` is empty or does not exist!`);
    return content;
  }
  if (typeof location.local === 'string') {
    // External::File::Local: the path is relative to the repository root, with or without a leading slash.
    if (!readers.local) throw new IncludeError(`Local file \`${location.local}\` does not have project!`);
    const content = await readers.local(location.local.replace(/^\/+/, ''));
    if (!content) throw new IncludeError(`Local file \`${location.local}\` does not exist!`);
    return content;
  }
  if (typeof location.remote === 'string') throw new IncludeError(`Remote file \`${location.remote}\` cannot be included: remote includes are not supported`);
  if (typeof location.file === 'string' || Array.isArray(location.file) || typeof location.project === 'string') {
    throw new IncludeError(`Project file \`${String(location.file)}\` cannot be included: project includes are not supported`);
  }
  throw new IncludeError(`Include \`${JSON.stringify(location)}\` does not have a valid subkey for include`);
}

/** The configuration with its `include` (and its included files' includes) merged in; throws IncludeError. */
export async function expandIncludes(config: Hash, readers: IncludeReaders): Promise<Hash> {
  let count = 0;
  const seen = new Set<string>();
  const expand = async (values: Hash): Promise<Hash> => {
    if (!Object.hasOwn(values, 'include')) return values;
    const { include, ...rest } = values;
    let merged: Hash = {};
    for (const location of locations(include)) {
      if (++count > MAX_INCLUDES) throw new IncludeError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      const key = JSON.stringify(location);
      if (seen.has(key)) throw new IncludeError(`Include \`${key}\` was already included!`);
      seen.add(key);
      const loaded = loadYaml(await readOne(location, readers));
      const name = String(location.template ?? location.local ?? '');
      if (!loaded.ok) throw new IncludeError(`Included file \`${name}\` does not have valid YAML syntax!`);
      if (!isHash(loaded.value)) throw new IncludeError(`Included file \`${name}\` does not have valid YAML syntax!`);
      merged = deepMerge(merged, await expand(loaded.value));
    }
    return deepMerge(merged, rest);
  };
  return expand(config);
}
