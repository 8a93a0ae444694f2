// The file templates (gitignores, gitlab_ci_ymls, dockerfiles) as GitLab 13.6's Gitlab::Template classes see them:
// a tree of files per type, grouped into categories (directories), listed category by category and by name, found by
// name in the categories in order. The data modules are imported on first use, never at startup. `templateContent`
// is the lookup `include: template:` uses as well as the API.

export const TEMPLATE_TYPES = ['gitignores', 'gitlab_ci_ymls', 'dockerfiles'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

interface TemplateKind {
  load: () => Promise<Readonly<Record<string, string>>>;
  /** Category name -> directory ('' is the root), in listing order (`self.categories`). */
  categories: ReadonlyArray<readonly [name: string, dir: string]>;
  /**
   * GitlabCiYmlTemplate.include_categories_for_file: directories searched, after the categories, for one name only
   * (SAST, which the SAST configuration page fetches by name), without listing it.
   */
  extraDirs?: Readonly<Record<string, readonly string[]>>;
}

const KINDS: Readonly<Record<TemplateType, TemplateKind>> = {
  // GitignoreTemplate.categories
  gitignores: {
    load: () =>
      Promise.all([import('./data/gitignores.ts'), import('./data/gitignores-more.ts')]).then(([a, b]) => ({ ...a.GITIGNORES, ...b.MORE_GITIGNORES })),
    categories: [
      ['Languages', ''],
      ['Global', 'Global'],
    ],
  },
  // GitlabCiYmlTemplate.categories ("Auto deploy" is GitLab's too; 13.6 ships none in it)
  gitlab_ci_ymls: {
    load: () =>
      Promise.all([import('./data/gitlab-ci-ymls.ts'), import('./data/gitlab-ci-ymls-more.ts')]).then(([a, b]) => ({
        ...a.GITLAB_CI_YMLS,
        ...b.MORE_GITLAB_CI_YMLS,
      })),
    categories: [
      ['General', ''],
      ['Pages', 'Pages'],
      ['Verify', 'Verify'],
      ['Auto deploy', 'autodeploy'],
    ],
    extraDirs: { SAST: ['Security'] },
  },
  // DockerfileTemplate.categories
  dockerfiles: {
    load: () =>
      Promise.all([import('./data/dockerfiles.ts'), import('./data/dockerfiles-more.ts')]).then(([a, b]) => ({ ...a.DOCKERFILES, ...b.MORE_DOCKERFILES })),
    categories: [['General', '']],
  },
};

export interface TemplateEntry {
  /** The file's base name: both `key` and `name` in GitLab's entities. */
  name: string;
  category: string;
}

const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** BaseTemplate.all: each category's files (not its subdirectories'), sorted by name, categories in order. */
export async function listTemplates(type: TemplateType): Promise<TemplateEntry[]> {
  const kind = KINDS[type];
  const paths = Object.keys(await kind.load());
  return kind.categories.flatMap(([category, dir]) =>
    paths
      .filter((p) => dirOf(p) === dir)
      .map((p) => ({ name: baseName(p), category }))
      // Ruby's String#<=>: by code unit, uppercase before lowercase.
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  );
}

/**
 * GlobalTemplateFinder#find: `name` (a path relative to the template root, without the extension) looked up in each
 * category's directory in order, then in the directories `extraDirs` names for it; case-sensitive, as file names
 * are. Returns the template's base name and content, or null.
 */
export async function findTemplate(type: TemplateType, name: string): Promise<{ name: string; content: string } | null> {
  const kind = KINDS[type];
  const files = await kind.load();
  const extra = kind.extraDirs && Object.hasOwn(kind.extraDirs, name) ? kind.extraDirs[name]! : [];
  const dirs = [...kind.categories.map(([, dir]) => dir), ...extra];
  for (const dir of dirs) {
    const path = dir ? `${dir}/${name}` : name;
    if (Object.hasOwn(files, path)) return { name: baseName(path), content: files[path]! };
  }
  return null;
}

/**
 * The content of a template, or null: what `include: template: <name>.gitlab-ci.yml` reads (call it with the name
 * without the extension, e.g. `Security/SAST`), the same data as the API.
 */
export async function templateContent(type: TemplateType, name: string): Promise<string | null> {
  return (await findTemplate(type, name))?.content ?? null;
}
