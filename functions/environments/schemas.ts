// Environment inputs (GitLab 13.6 lib/api/environments.rb) and Entities::EnvironmentBasic and ::Environment.
import * as z from 'zod/mini';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { EnvironmentRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { pathId, schema, str } from '../lib/validate.ts';
import { toBasicProject } from '../projects/schemas.ts';

export const EnvironmentPath = () => ({ environment_id: pathId() });

/** The slug is never a parameter: GitLab answers this Grape error for any value, blank included. */
const noSlug = () =>
  z.superRefine(
    (v: Record<string, unknown>, ctx) => {
      if (v?.slug !== undefined) ctx.issues.push({ code: 'custom', message: 'is automatically generated and cannot be changed', path: ['slug'], input: v });
    },
    { when: () => true },
  );

/** `mutually_exclusive :name, :search` with the route's own message. */
const nameOrSearch = () =>
  z.superRefine(
    (v: Record<string, unknown>, ctx) => {
      if (v?.name !== undefined && v?.search !== undefined)
        ctx.issues.push({ code: 'custom', message: 'cannot be used together', path: ['name, search'], input: v });
    },
    { when: () => true },
  );

export const ListEnvironmentsInput = schema(() =>
  z.object({ ...paginationParams(), name: z.optional(str()), search: z.optional(str()) }).check(nameOrSearch()),
);

export const CreateEnvironmentInput = schema(() =>
  z.object({ name: str(), external_url: z.optional(z.nullable(str())), slug: z.optional(z.unknown()) }).check(noSlug()),
);

export const UpdateEnvironmentInput = schema(() =>
  z.object({ name: z.optional(str()), external_url: z.optional(z.nullable(str())), slug: z.optional(z.unknown()) }).check(noSlug()),
);

/** Entities::EnvironmentBasic. */
export const toEnvironmentBasic = (e: EnvironmentRow) => ({ id: e.id, name: e.name, slug: e.slug, external_url: e.externalUrl });

/**
 * Entities::Environment: the basic fields, the project (BasicProjectDetails), the last deployment where asked for
 * (GET one, which leaves the project out), the state.
 */
export function toEnvironment(e: EnvironmentRow, o: { project?: ProjectView; config: Config; lastDeployment?: unknown }) {
  return {
    ...toEnvironmentBasic(e),
    ...(o.project ? { project: toBasicProject(o.project.project, o.project.namespace, o.config, o.project.forksCount, o.project.repository) } : {}),
    ...(o.lastDeployment !== undefined ? { last_deployment: o.lastDeployment } : {}),
    state: e.state,
  };
}
