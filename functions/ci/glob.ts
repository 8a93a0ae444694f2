// Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, as `rules:exists` and `changes` match paths:
// `*` and `?` stay within a directory, `**/` spans directories, `{a,b}` alternates. Written by hand: a few lines,
// and the only glob this domain needs.
const cache = new Map<string, RegExp>();

function toRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*' && glob[i + 2] === '/') {
      out += '(?:.*/)?';
      i += 2;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export function globMatch(glob: string, path: string): boolean {
  let re = cache.get(glob);
  if (!re) cache.set(glob, (re = toRegExp(glob)));
  return re.test(path);
}
