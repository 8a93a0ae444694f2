// The templates API's verbs (GitLab 13.6 lib/api/templates.rb): public reads, no permission to check. Licenses come
// from licenses.ts, the file templates from catalog.ts; both load their data on first use.
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import { findTemplate, listTemplates, type TemplateEntry, type TemplateType } from './catalog.ts';
import { licenseTemplate, licenseTemplates, resolveLicense, type LicenseTemplate } from './licenses.ts';

/** GET /templates/licenses: all, or only the popular (true) or the other (false) ones (LicenseTemplateFinder). */
export const listLicenses = ({ input }: { input: { popular?: boolean | undefined } }): Promise<LicenseTemplate[]> => licenseTemplates(input.popular);

/**
 * GET /templates/licenses/:name with its placeholders filled: the current year (UTC, Rails' Time.current), the
 * `project` name, and the copyright holder (`fullname`, else the signed-in user's name); blank values fill nothing.
 */
export async function getLicense({
  ctx,
  input,
}: {
  ctx: RequestContext;
  input: { name: string; project?: string | undefined; fullname?: string | undefined };
}): Promise<LicenseTemplate> {
  const template = await licenseTemplate(input.name);
  if (!template) throw notFound('License');
  const fullname = input.fullname?.trim() ? input.fullname : ctx.actor.user?.name;
  const year = String(new Date().getUTCFullYear());
  return { ...template, content: resolveLicense(template.content, { year, project: input.project, fullname }) };
}

export const listFileTemplates = ({ input }: { input: { type: TemplateType } }): Promise<TemplateEntry[]> => listTemplates(input.type);

/** GitLab's `not_found!(template_type.to_s.singularize)`: `404 gitignore Not Found`, `404 gitlab_ci_yml Not Found`. */
const SINGULAR: Readonly<Record<TemplateType, string>> = { gitignores: 'gitignore', gitlab_ci_ymls: 'gitlab_ci_yml', dockerfiles: 'dockerfile' };

export async function getFileTemplate({ input }: { input: { type: TemplateType; name: string } }): Promise<{ name: string; content: string }> {
  const template = await findTemplate(input.type, input.name);
  if (!template) throw notFound(SINGULAR[input.type]);
  return template;
}
