// README's "Projects, groups, users and the instance's settings" says which settings are stored but not acted on:
// it must name every one the catalogs mark so, and claim no stored-only setting as acted on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STORED_ONLY as PROJECT } from '../../functions/projects/settings.ts';
import { STORED_ONLY as GROUP } from '../../functions/groups/settings.ts';
import { SETTINGS, STORED_ONLY as INSTANCE } from '../../functions/application-settings/catalog.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf("## Projects, groups, users and the instance's settings"), readme.indexOf('## Configuration'));
const line = (prefix: string) => section.slice(section.indexOf(prefix), section.indexOf('\n- ', section.indexOf(prefix) + 1));
const acted = section.slice(section.indexOf('Acted on:'), section.indexOf('Stored and returned'));

describe('README: the stored-only settings', () => {
  it('lists every stored-only project and group setting', () => {
    for (const key of PROJECT) expect(line('- projects:'), key).toContain(`\`${key}\``);
    for (const key of GROUP) expect(line('- groups:'), key).toContain(`\`${key}\``);
  });

  it('names as acted on exactly the instance settings the catalog acts on', () => {
    const actedOn = (Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]).filter((k) => !INSTANCE.includes(k));
    for (const key of actedOn) expect(acted, key).toContain(`\`${key}\``);
    const instancePart = acted.slice(acted.indexOf("the instance's"));
    for (const key of INSTANCE) expect(instancePart, key).not.toContain(`\`${key}\``);
  });
});
