// Pipeline inputs (GitLab 13.6 lib/api/pipelines.rb) and Entities::PipelineBasic, ::Pipeline, ::Variable, and the
// detailed status (DetailedStatusEntity) they share with jobs.
import * as z from 'zod/mini';
import type { PipelineRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { bool, dateTime, oneOf, pathId, schema, str } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';
import { BLANK_SHA } from '../ci/refs.ts';
import { detailedStatus, JOB_STATUSES, type DetailedStatusOptions, type JobStatus } from './status.ts';

export const PipelinePath = () => ({ pipeline_id: pathId() });

export const ListPipelinesInput = schema(() =>
  z.object({
    ...paginationParams(),
    scope: z.optional(oneOf(['running', 'pending', 'finished', 'branches', 'tags'])),
    status: z.optional(z.enum(JOB_STATUSES)),
    ref: z.optional(str()),
    sha: z.optional(str()),
    yaml_errors: z.optional(bool()),
    name: z.optional(str()),
    username: z.optional(str()),
    updated_before: z.optional(dateTime()),
    updated_after: z.optional(dateTime()),
    order_by: z._default(oneOf(['id', 'status', 'ref', 'updated_at', 'user_id']), 'id'),
    sort: z._default(oneOf(['asc', 'desc']), 'desc'),
  }),
);

const variable = () =>
  z.object({
    key: str(255),
    value: z.pipe(
      z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
      z.string(),
    ),
    variable_type: z._default(oneOf(['env_var', 'file']), 'env_var'),
  });

export const CreatePipelineInput = schema(() => z.object({ ref: str(), variables: z.optional(z.array(variable())) }));

const web = (config: Config, p: { pathWithNamespace: string }) => `${config.publicUrl}/${p.pathWithNamespace}`;
export const pipelineWebUrl = (config: Config, project: { pathWithNamespace: string }, id: number) => `${web(config, project)}/-/pipelines/${id}`;

/** DetailedStatusEntity: the presentation fields, the page it links to, and GitLab's favicon path. */
export function toDetailedStatus(status: JobStatus, detailsPath: string, options: DetailedStatusOptions = {}) {
  const d = detailedStatus(status, options);
  return {
    icon: d.icon,
    text: d.text,
    label: d.label,
    group: d.group,
    tooltip: d.tooltip,
    has_details: d.hasDetails,
    details_path: detailsPath,
    illustration: null,
    favicon: `/assets/ci_favicons/${d.favicon}.png`,
  };
}

/** Entities::PipelineBasic. */
export const toPipelineBasic = (p: PipelineRow, project: { pathWithNamespace: string }, config: Config) => ({
  id: p.id,
  sha: p.sha,
  ref: p.ref,
  status: p.status,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
  web_url: pipelineWebUrl(config, project, p.id),
});

/** Entities::Pipeline: the basic fields, then the detail. `hasWarnings`: an allowed failure among its jobs. */
export function toPipeline(p: PipelineRow, project: { pathWithNamespace: string }, user: UserRow | null, config: Config, hasWarnings = false) {
  return {
    ...toPipelineBasic(p, project, config),
    before_sha: p.beforeSha ?? BLANK_SHA,
    tag: p.tag,
    yaml_errors: p.yamlErrors,
    user: user ? toUserBasic(user, config) : null,
    started_at: iso(p.startedAt),
    finished_at: iso(p.finishedAt),
    committed_at: iso(p.committedAt),
    duration: p.duration,
    coverage: p.coverage === null ? null : p.coverage.toFixed(2).replace(/0$/, ''),
    detailed_status: toDetailedStatus(p.status, `/${project.pathWithNamespace}/-/pipelines/${p.id}`, { subject: 'pipeline', hasWarnings }),
  };
}

/** Entities::Variable for a pipeline variable (no protected/masked/environment_scope: the model has none). */
export const toPipelineVariable = (v: { key: string; value: string; variableType: string }) => ({ variable_type: v.variableType, key: v.key, value: v.value });
