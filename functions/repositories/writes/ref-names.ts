// Which branch names git accepts, as Gitlab::GitRefValidator.validate checks them in 13.6: not `HEAD`, not starting
// with refs/heads/ or refs/remotes/, and a valid `refs/heads/<name>` for git (git-check-ref-format(1), what
// Rugged::Reference.valid_name? implements). Written out here: the rules are few and no package implements them.

// ASCII control characters, space, ~ ^ : ? * [ \ and DEL.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\x00-\x20~^:?*[\\\x7f]/;

/** git check-ref-format's rules for a full ref name. */
export function isValidRefName(name: string): boolean {
  if (!name || FORBIDDEN.test(name) || name.includes('..') || name.includes('@{') || name === '@') return false;
  if (name.endsWith('/') || name.endsWith('.') || name.startsWith('/')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Gitlab::GitRefValidator.validate: a name a new branch may take. */
export function isValidBranchName(name: string): boolean {
  if (name === 'HEAD' || name.startsWith('refs/heads/') || name.startsWith('refs/remotes/')) return false;
  return isValidRefName(`refs/heads/${name}`);
}
