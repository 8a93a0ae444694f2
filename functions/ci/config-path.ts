// Where a project's CI configuration lives (GitLab's default ci_config_path), and how much of it is read: the
// YAML loader's 1 MB limit plus one byte, so an oversized file is read as oversized. A module of its own so that
// what only looks for the file (every push) does not load the parser.
export const CI_CONFIG_PATH = '.gitlab-ci.yml';

/**
 * Where the project's pipelines read their configuration: its ci_config_path (a path in the repository, e.g.
 * `ci/main.yml`), else `.gitlab-ci.yml`. 13.6's other forms (`file@group/project`, a URL) are stored but read here
 * as paths of this repository, which finds no file and makes no pipeline (README).
 */
export const configPathOf = (project: { settings: Record<string, unknown> }) => {
  const path = project.settings.ci_config_path;
  return typeof path === 'string' && path !== '' ? path : CI_CONFIG_PATH;
};
export const CONFIG_READ_LIMIT = 1024 * 1024 + 1;
