// GET /templates/licenses[/:name] and /templates/{gitignores,gitlab_ci_ymls,dockerfiles}[/:name] (GitLab 13.6
// lib/api/templates.rb). Public: no sign-in needed (a bad token is still 401, from the API's actor middleware). The
// old unprefixed paths (/licenses, /gitignores, ...) were removed in API v4 and stay 404. Like GitLab's routes, each
// type has its own paths (an unknown type is the API's plain 404) and `:name` must match /[\w.-]+/.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { paginateArray } from '../lib/pagination.ts';
import { params } from '../lib/validate.ts';
import { TEMPLATE_TYPES } from './catalog.ts';
import { GetLicenseInput, ListLicensesInput, ListTemplatesInput, toLicense, toTemplate, toTemplateListItem } from './schemas.ts';
import { getFileTemplate, getLicense, listFileTemplates, listLicenses } from './service.ts';

export const templateRoutes = new Hono<AppEnv>();

const NAME = ':name{[\\w.-]+}';

templateRoutes.get('/templates/licenses', params(ListLicensesInput), async (c) => {
  const input = c.req.valid('query');
  const all = await listLicenses({ input });
  return c.json((await paginateArray(c, input, all)).map(toLicense));
});

templateRoutes.get(`/templates/licenses/${NAME}`, params(GetLicenseInput), async (c) => {
  const license = await getLicense({ ctx: c.var.ctx, input: { name: c.req.param('name'), ...c.req.valid('query') } });
  return c.json(toLicense(license));
});

for (const type of TEMPLATE_TYPES) {
  templateRoutes.get(`/templates/${type}`, params(ListTemplatesInput), async (c) => {
    const input = c.req.valid('query');
    const all = await listFileTemplates({ input: { type } });
    return c.json((await paginateArray(c, input, all)).map(toTemplateListItem));
  });

  templateRoutes.get(`/templates/${type}/${NAME}`, async (c) => c.json(toTemplate(await getFileTemplate({ input: { type, name: c.req.param('name') } }))));
}
