// GET /projects/:id/languages (GitLab 13.6 Projects::RepositoryLanguagesService, Gitaly's CommitLanguages through
// Linguist): the default branch's programming and markup languages by share of bytes, in percent with two
// decimals, largest first. Files are named to languages by extension or file name (the common part of Linguist's
// table, below); data and prose (JSON, YAML, Markdown...) are not counted, as Linguist does not count them.
import { languageKeyRows } from '../../../db/queries/repositories/languages.ts';
import type { RequestContext } from '../../lib/context.ts';
import type { Ref } from '../../lib/ids.ts';
import { projectFor } from '../service.ts';

const BY_EXTENSION: Record<string, string> = {
  '.rb': 'Ruby',
  '.rake': 'Ruby',
  '.gemspec': 'Ruby',
  '.ru': 'Ruby',
  '.erb': 'HTML+ERB',
  '.haml': 'Haml',
  '.slim': 'Slim',
  '.js': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.jsx': 'JavaScript',
  '.ts': 'TypeScript',
  '.tsx': 'TSX',
  '.vue': 'Vue',
  '.svelte': 'Svelte',
  '.coffee': 'CoffeeScript',
  '.html': 'HTML',
  '.htm': 'HTML',
  '.xhtml': 'HTML',
  '.css': 'CSS',
  '.scss': 'SCSS',
  '.sass': 'Sass',
  '.less': 'Less',
  '.styl': 'Stylus',
  '.py': 'Python',
  '.pyw': 'Python',
  '.pyx': 'Cython',
  '.ipynb': 'Jupyter Notebook',
  '.go': 'Go',
  '.rs': 'Rust',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.kts': 'Kotlin',
  '.scala': 'Scala',
  '.groovy': 'Groovy',
  '.gradle': 'Gradle',
  '.clj': 'Clojure',
  '.cljs': 'Clojure',
  '.c': 'C',
  '.h': 'C',
  '.cc': 'C++',
  '.cpp': 'C++',
  '.cxx': 'C++',
  '.hpp': 'C++',
  '.hh': 'C++',
  '.hxx': 'C++',
  '.m': 'Objective-C',
  '.mm': 'Objective-C++',
  '.swift': 'Swift',
  '.cs': 'C#',
  '.fs': 'F#',
  '.vb': 'Visual Basic .NET',
  '.php': 'PHP',
  '.pl': 'Perl',
  '.pm': 'Perl',
  '.t': 'Perl',
  '.lua': 'Lua',
  '.r': 'R',
  '.jl': 'Julia',
  '.dart': 'Dart',
  '.ex': 'Elixir',
  '.exs': 'Elixir',
  '.erl': 'Erlang',
  '.hrl': 'Erlang',
  '.hs': 'Haskell',
  '.elm': 'Elm',
  '.ml': 'OCaml',
  '.mli': 'OCaml',
  '.sh': 'Shell',
  '.bash': 'Shell',
  '.zsh': 'Shell',
  '.ps1': 'PowerShell',
  '.psm1': 'PowerShell',
  '.bat': 'Batchfile',
  '.cmd': 'Batchfile',
  '.sql': 'PLSQL',
  '.pls': 'PLSQL',
  '.tf': 'HCL',
  '.hcl': 'HCL',
  '.nix': 'Nix',
  '.cmake': 'CMake',
  '.mk': 'Makefile',
  '.mak': 'Makefile',
  '.asm': 'Assembly',
  '.s': 'Assembly',
  '.f90': 'Fortran',
  '.f': 'Fortran',
  '.pas': 'Pascal',
  '.d': 'D',
  '.zig': 'Zig',
  '.nim': 'Nim',
  '.cr': 'Crystal',
  '.v': 'Verilog',
  '.sv': 'SystemVerilog',
  '.vhd': 'VHDL',
  '.tex': 'TeX',
  '.vim': 'Vim script',
  '.el': 'Emacs Lisp',
  '.lisp': 'Common Lisp',
  '.scm': 'Scheme',
  '.rkt': 'Racket',
  '.sol': 'Solidity',
  '.proto': 'Protocol Buffer',
  '.graphql': 'GraphQL',
  '.gql': 'GraphQL',
  '.dockerfile': 'Dockerfile',
  '.xsl': 'XSLT',
  '.twig': 'Twig',
  '.mustache': 'Mustache',
  '.hbs': 'Handlebars',
  '.handlebars': 'Handlebars',
  '.jinja': 'Jinja',
  '.j2': 'Jinja',
  '.ejs': 'EJS',
  '.pug': 'Pug',
  '.astro': 'Astro',
  '.purs': 'PureScript',
};

const BY_NAME: Record<string, string> = {
  Makefile: 'Makefile',
  GNUmakefile: 'Makefile',
  makefile: 'Makefile',
  Dockerfile: 'Dockerfile',
  Rakefile: 'Ruby',
  Gemfile: 'Ruby',
  Guardfile: 'Ruby',
  Vagrantfile: 'Ruby',
  Podfile: 'Ruby',
  Jenkinsfile: 'Groovy',
  'CMakeLists.txt': 'CMake',
  Containerfile: 'Dockerfile',
};

/** The language a file key names (an extension or a file name), if it is one Linguist counts. */
export const languageOf = (key: string): string | undefined => (key.startsWith('.') ? BY_EXTENSION[key] : (BY_NAME[key] ?? BY_EXTENSION[key]));

/** Shares in percent, rounded to two decimals, largest first (RepositoryLanguage#share). */
export function languageShares(rows: readonly { key: string; bytes: number }[]): [string, number][] {
  const bytes = new Map<string, number>();
  for (const r of rows) {
    const language = languageOf(r.key);
    if (language) bytes.set(language, (bytes.get(language) ?? 0) + r.bytes);
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  return [...bytes].map(([name, n]): [string, number] => [name, Math.round((n / total) * 10000) / 100]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Ruby's Float#to_s in JSON: `100.0`, `66.69` (a whole number keeps its `.0`). */
const rubyFloat = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

/** The response body: a JSON object of language to share, in share order, with Ruby's float spelling. */
export const languagesJson = (shares: readonly [string, number][]) => `{${shares.map(([k, v]) => `${JSON.stringify(k)}:${rubyFloat(v)}`).join(',')}}`;

export async function projectLanguages(ctx: RequestContext, ref: Ref | null) {
  // Derived from the code: its readers (download_code), a little stricter than 13.6, which asks only read_project.
  const found = await projectFor(ctx, ref, 'project:download_code');
  return languageShares(await languageKeyRows(ctx.db, found.context.projectId));
}
