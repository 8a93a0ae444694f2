// Where a project's CI configuration lives (GitLab's default ci_config_path), and how much of it is read: the
// YAML loader's 1 MB limit plus one byte, so an oversized file is read as oversized. A module of its own so that
// what only looks for the file (every push) does not load the parser.
export const CI_CONFIG_PATH = '.gitlab-ci.yml';
export const CONFIG_READ_LIMIT = 1024 * 1024 + 1;
