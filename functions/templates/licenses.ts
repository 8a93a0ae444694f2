// License templates as GitLab 13.6 serves them (LicenseTemplateFinder over the licensee gem): the licenses
// choosealicense.com shows (licensee's `License.all`: not hidden, sorted by key), their choosealicense metadata, and
// GitLab's placeholder filling (LicenseTemplate#resolve!). The texts come from spdx-license-list, one JSON file per
// license, imported when a request first needs that license: nothing here is read at startup.

/** choosealicense.com's front matter for a license (licensee's LicenseMeta), as the License entity exposes it. */
export interface LicenseMeta {
  key: string;
  /** `title` */
  name: string;
  nickname: string | null;
  /** licensee's `featured?`: GitLab's category :Popular, `popular` in the entity. */
  featured: boolean;
  /** The license's SPDX id: the spdx-license-list file, and licensee's `source` (spdx.org/licenses/<id>.html). */
  spdx: string;
  description: string;
  conditions: readonly string[];
  permissions: readonly string[];
  limitations: readonly string[];
}

// Metadata from choosealicense.com's _licenses/<key>.txt front matter (https://choosealicense.com/licenses/,
// data MIT-licensed by GitHub), the set licensee vendors as not hidden. Kept by hand: 13 short records.
const PERMISSIVE = ['commercial-use', 'modifications', 'distribution', 'private-use'] as const;
const WITH_PATENTS = ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use'] as const;
const NO_LIABILITY = ['liability', 'warranty'] as const;

export const LICENSES: readonly LicenseMeta[] = [
  {
    key: 'agpl-3.0',
    name: 'GNU Affero General Public License v3.0',
    nickname: 'GNU AGPLv3',
    featured: false,
    spdx: 'AGPL-3.0',
    description:
      'Permissions of this strongest copyleft license are conditioned on making available complete source code of licensed works and modifications, which include larger works using a licensed work, under the same license. Copyright and license notices must be preserved. Contributors provide an express grant of patent rights. When a modified version is used to provide a service over a network, the complete source code of the modified version must be made available.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'network-use-disclose', 'same-license'],
    permissions: WITH_PATENTS,
    limitations: NO_LIABILITY,
  },
  {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    nickname: null,
    featured: true,
    spdx: 'Apache-2.0',
    description:
      'A permissive license whose main conditions require preservation of copyright and license notices. Contributors provide an express grant of patent rights. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: ['include-copyright', 'document-changes'],
    permissions: WITH_PATENTS,
    limitations: ['trademark-use', 'liability', 'warranty'],
  },
  {
    key: 'bsd-2-clause',
    name: 'BSD 2-Clause "Simplified" License',
    nickname: null,
    featured: false,
    spdx: 'BSD-2-Clause',
    description: 'A permissive license that comes in two variants, the BSD 2-Clause and BSD 3-Clause. Both have very minute differences to the MIT license.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'bsd-3-clause',
    name: 'BSD 3-Clause "New" or "Revised" License',
    nickname: null,
    featured: false,
    spdx: 'BSD-3-Clause',
    description:
      'A permissive license similar to the BSD 2-Clause License, but with a 3rd clause that prohibits others from using the name of the project or its contributors to promote derived products without written consent.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'bsl-1.0',
    name: 'Boost Software License 1.0',
    nickname: null,
    featured: false,
    spdx: 'BSL-1.0',
    description:
      'A simple permissive license only requiring preservation of copyright and license notices for source (and not binary) distribution. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: ['include-copyright--source'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'cc0-1.0',
    name: 'Creative Commons Zero v1.0 Universal',
    nickname: null,
    featured: false,
    spdx: 'CC0-1.0',
    description:
      "The Creative Commons CC0 Public Domain Dedication waives copyright interest in a work you've created and dedicates it to the world-wide public domain. Use CC0 to opt out of copyright entirely and ensure your work has the widest reach. As with the Unlicense and typical software licenses, CC0 disclaims warranties. CC0 is very similar to the Unlicense.",
    conditions: [],
    permissions: PERMISSIVE,
    limitations: ['liability', 'trademark-use', 'patent-use', 'warranty'],
  },
  {
    key: 'epl-2.0',
    name: 'Eclipse Public License 2.0',
    nickname: null,
    featured: false,
    spdx: 'EPL-2.0',
    description:
      'This commercially-friendly copyleft license provides the ability to commercially license binaries; a modern royalty-free patent license grant; and the ability for linked works to use other licenses, including commercial ones.',
    conditions: ['disclose-source', 'include-copyright', 'same-license'],
    permissions: ['commercial-use', 'distribution', 'modifications', 'patent-use', 'private-use'],
    limitations: NO_LIABILITY,
  },
  {
    key: 'gpl-2.0',
    name: 'GNU General Public License v2.0',
    nickname: 'GNU GPLv2',
    featured: false,
    spdx: 'GPL-2.0',
    description:
      'The GNU GPL is the most widely used free software license and has a strong copyleft requirement. When distributing derived works, the source code of the work must be made available under the same license. There are multiple variants of the GNU GPL, each with different requirements.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    nickname: 'GNU GPLv3',
    featured: true,
    spdx: 'GPL-3.0',
    description:
      'Permissions of this strong copyleft license are conditioned on making available complete source code of licensed works and modifications, which include larger works using a licensed work, under the same license. Copyright and license notices must be preserved. Contributors provide an express grant of patent rights.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: WITH_PATENTS,
    limitations: NO_LIABILITY,
  },
  {
    key: 'lgpl-2.1',
    name: 'GNU Lesser General Public License v2.1',
    nickname: 'GNU LGPLv2.1',
    featured: false,
    spdx: 'LGPL-2.1',
    description:
      'Primarily used for software libraries, the GNU LGPL requires that derived works be licensed under the same license, but works that only link to it do not fall under this restriction. There are two commonly used versions of the GNU LGPL.',
    conditions: ['include-copyright', 'disclose-source', 'document-changes', 'same-license--library'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'mit',
    name: 'MIT License',
    nickname: null,
    featured: true,
    spdx: 'MIT',
    description:
      'A short and simple permissive license with conditions only requiring preservation of copyright and license notices. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: NO_LIABILITY,
  },
  {
    key: 'mpl-2.0',
    name: 'Mozilla Public License 2.0',
    nickname: null,
    featured: false,
    spdx: 'MPL-2.0',
    description:
      'Permissions of this weak copyleft license are conditioned on making available source code of licensed files and modifications of those files under the same license (or in certain cases, one of the GNU licenses). Copyright and license notices must be preserved. Contributors provide an express grant of patent rights. However, a larger work using the licensed work may be distributed under different terms and without source code for files added in the larger work.',
    conditions: ['disclose-source', 'include-copyright', 'same-license--file'],
    permissions: WITH_PATENTS,
    limitations: ['liability', 'trademark-use', 'warranty'],
  },
  {
    key: 'unlicense',
    name: 'The Unlicense',
    nickname: null,
    featured: false,
    spdx: 'Unlicense',
    description:
      'A license with no conditions whatsoever which dedicates works to the public domain. Unlicensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: [],
    permissions: ['private-use', 'commercial-use', 'modifications', 'distribution'],
    limitations: NO_LIABILITY,
  },
];

type SpdxFile = Promise<{ default: { licenseText: string } }>;

/**
 * Each license's text file, as a dynamic import the bundler can see (a literal path per license, so only these 13
 * of spdx-license-list's files are bundled, each in a chunk of its own loaded on first use).
 */
const TEXTS: Readonly<Record<string, () => SpdxFile>> = {
  'agpl-3.0': () => import('spdx-license-list/licenses/AGPL-3.0.json'),
  'apache-2.0': () => import('spdx-license-list/licenses/Apache-2.0.json'),
  'bsd-2-clause': () => import('spdx-license-list/licenses/BSD-2-Clause.json'),
  'bsd-3-clause': () => import('spdx-license-list/licenses/BSD-3-Clause.json'),
  'bsl-1.0': () => import('spdx-license-list/licenses/BSL-1.0.json'),
  'cc0-1.0': () => import('spdx-license-list/licenses/CC0-1.0.json'),
  'epl-2.0': () => import('spdx-license-list/licenses/EPL-2.0.json'),
  'gpl-2.0': () => import('spdx-license-list/licenses/GPL-2.0.json'),
  'gpl-3.0': () => import('spdx-license-list/licenses/GPL-3.0.json'),
  'lgpl-2.1': () => import('spdx-license-list/licenses/LGPL-2.1.json'),
  mit: () => import('spdx-license-list/licenses/MIT.json'),
  'mpl-2.0': () => import('spdx-license-list/licenses/MPL-2.0.json'),
  unlicense: () => import('spdx-license-list/licenses/Unlicense.json'),
};

/**
 * SPDX's texts write some placeholders differently from choosealicense's (which licensee ships and GitLab's
 * regexes were written for): `<copyright holders>`, `<owner>`, and the GNU v2 appendices without brackets. Each is
 * rewritten to the choosealicense form (MIT reads `Copyright (c) [year] [fullname]`, as GitLab serves it), so
 * GitLab's own regexes below fill the same places.
 */
const SPDX_PLACEHOLDERS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  mit: [['Copyright (c) <year> <copyright holders>', 'Copyright (c) [year] [fullname]']],
  'bsd-2-clause': [['Copyright (c) <year> <owner>', 'Copyright (c) [year] [fullname]']],
  'bsd-3-clause': [['Copyright (c) <year> <owner>', 'Copyright (c) [year] [fullname]']],
  'gpl-2.0': [
    [
      "one line to give the program's name and an idea of what it does. Copyright (C) yyyy name of author",
      "<one line to give the program's name and a brief idea of what it does.>\n     Copyright (C) <year>  <name of author>",
    ],
  ],
  'lgpl-2.1': [
    [
      "one line to give the library's name and an idea of what it does.\n     Copyright (C) year  name of author",
      "<one line to give the library's name and a brief idea of what it does.>\n     Copyright (C) <year>  <name of author>",
    ],
  ],
};

const texts = new Map<string, string>();

/** The license's text with its placeholders in choosealicense's form (cached per isolate). */
async function licenseText(key: string): Promise<string> {
  const cached = texts.get(key);
  if (cached !== undefined) return cached;
  let text = (await TEXTS[key]!()).default.licenseText;
  for (const [from, to] of SPDX_PLACEHOLDERS[key] ?? []) text = text.replace(from, to);
  texts.set(key, text);
  return text;
}

export interface LicenseTemplate extends LicenseMeta {
  content: string;
}

/** `popular`: true, only the featured licenses; false, only the others; undefined, all (licensee's `featured:`). */
export async function licenseTemplates(popular: boolean | undefined): Promise<LicenseTemplate[]> {
  const chosen = popular === undefined ? LICENSES : LICENSES.filter((l) => l.featured === popular);
  return Promise.all(chosen.map(async (l) => ({ ...l, content: await licenseText(l.key) })));
}

/** The license whose key is exactly `key` (GitLab compares keys as given: `MIT` is not `mit`), or null. */
export async function licenseTemplate(key: string): Promise<LicenseTemplate | null> {
  const meta = LICENSES.find((l) => l.key === key);
  return meta ? { ...meta, content: await licenseText(meta.key) } : null;
}

// LicenseTemplate's regexes (GitLab 13.6 app/models/license_template.rb), as JavaScript: Ruby's `.` does not cross
// a newline either.
const PROJECT = /[<{[](project|description|one\sline\s.+\swhat\sit\sdoes\.)[>}\]]/gi;
const YEAR = /[<{[](year|yyyy)[>}\]]/gi;
const FULLNAME = /[<{[](fullname|name\sof\s(author|copyright\sowner))[>}\]]/gi;

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/**
 * LicenseTemplate#resolve!: the year, then the project name, then the copyright holder, each only when given and not
 * blank. Values are inserted literally (a `$&` in a name stays as typed).
 */
export function resolveLicense(content: string, values: { year: string; project?: string; fullname?: string }): string {
  let out = content.replace(YEAR, () => values.year);
  if (present(values.project)) out = out.replace(PROJECT, () => values.project!);
  if (present(values.fullname)) out = out.replace(FULLNAME, () => values.fullname!);
  return out;
}
