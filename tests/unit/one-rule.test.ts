// db/queries/lib/access.ts (the policy's SQL twins) holds the one definition of an active membership and the access-level
// constants: the member, group and user queries must use them, not copies (a copy is how expired owners came to count
// as owners).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const FILES = ['db/queries/users.ts', 'db/queries/groups.ts', 'db/queries/members.ts', 'db/queries/tokens.ts'];
const source = (file: string) =>
  readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
    // Comments may talk about the rules.
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

const COPIES: Array<[string, RegExp]> = [
  ['an expiry check of its own', /expires_?at\W*\s*(IS NULL|>|<)|current_date/i],
  ['an access level written as a number', /(access_?level\W*\s*(=|>=|>|<=|<|,|:)\s*|THEN\s+)(10|20|30|40|50)\b/i],
];

describe('one membership rule, one set of access levels', () => {
  for (const file of FILES) {
    for (const [what, pattern] of COPIES) {
      it(`${file} has no ${what}`, () => {
        expect(source(file).match(pattern)?.[0] ?? null).toBeNull();
      });
    }
  }
});
