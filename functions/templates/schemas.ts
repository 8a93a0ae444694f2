// Inputs of the templates API and GitLab's entities for it (API::Entities::License over LicenseBasic,
// TemplatesList, Template).
import * as z from 'zod/mini';
import { paginationParams } from '../lib/pagination.ts';
import { bool, schema } from '../lib/validate.ts';
import type { TemplateEntry } from './catalog.ts';
import type { LicenseTemplate } from './licenses.ts';

export const ListLicensesInput = schema(() => z.object({ ...paginationParams(), popular: z.optional(bool()) }));

/** Grape's `type: String`: any text (JSON numbers as their digits). */
const anyString = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
    z.string(),
  );

export const GetLicenseInput = schema(() => z.object({ project: z.optional(anyString()), fullname: z.optional(anyString()) }));

export const ListTemplatesInput = schema(() => z.object(paginationParams()));

/** licensee's License#url: choosealicense.com's page for the license. */
const htmlUrl = (key: string) => `http://choosealicense.com/licenses/${key}/`;

export const toLicense = (l: LicenseTemplate) => ({
  key: l.key,
  name: l.name,
  nickname: l.nickname,
  html_url: htmlUrl(l.key),
  // licensee's meta `source`: the license's page on spdx.org.
  source_url: `https://spdx.org/licenses/${l.spdx}.html`,
  popular: l.featured,
  description: l.description,
  conditions: l.conditions,
  permissions: l.permissions,
  limitations: l.limitations,
  content: l.content,
});

export const toTemplateListItem = (t: TemplateEntry) => ({ key: t.name, name: t.name });

export const toTemplate = (t: { name: string; content: string }) => ({ name: t.name, content: t.content });
