// Runner API inputs (GitLab 13.6 lib/api/ci/runner.rb). Grape's rules: `token` is required everywhere (`token is
// missing`), `tag_list` is an array or a comma-separated string (CommaSeparatedToArray), `info` a hash.
import * as z from 'zod/mini';
import { atLeastOneOf, bool, commaList, int, oneOf, schema, str } from '../lib/validate.ts';
import { paginationParams } from '../lib/pagination.ts';
import type { NamespaceRow, ProjectRow, RunnerRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { groupWebUrl } from '../groups/schemas.ts';
import { toBasicProject } from '../projects/schemas.ts';

const info = () =>
  z.optional(
    z.object({
      name: z.optional(str()),
      version: z.optional(str()),
      revision: z.optional(str()),
      platform: z.optional(str()),
      architecture: z.optional(str()),
    }),
  );

const tagList = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.split(',') : v)),
    z.array(str()),
  );

export const RegisterInput = schema(() =>
  z.object({
    token: str(),
    description: z.optional(str()),
    info: info(),
    active: z.optional(bool()),
    locked: z.optional(bool()),
    run_untagged: z.optional(bool()),
    tag_list: z.optional(tagList()),
    access_level: z.optional(oneOf(['not_protected', 'ref_protected'])),
    maximum_timeout: z.optional(int()),
  }),
);

export const RunnerTokenInput = schema(() => z.object({ token: str() }));

export const JobRequestInput = schema(() => z.object({ token: str(), last_update: z.optional(str()), info: info() }));

export const UpdateJobInput = schema(() =>
  z.object({
    token: str(),
    state: z.optional(oneOf(['running', 'success', 'failed'])),
    failure_reason: z.optional(str()),
    exit_code: z.optional(int()),
    checksum: z.optional(str()),
  }),
);

export const ArtifactUploadInput = schema(() =>
  z.object({
    artifact_type: z._default(oneOf(['archive', 'metadata', 'trace', 'junit']), 'archive'),
    artifact_format: z._default(oneOf(['zip', 'gzip', 'raw']), 'zip'),
    expire_in: z.optional(str()),
  }),
);

// ---- The administration API ----

/** GET /runners (`scope` values of the user's listing) and /runners/all (which adds specific and shared). */
export const ListRunnersInput = (all: boolean) =>
  schema(() =>
    z.object({
      ...paginationParams(),
      scope: z.optional(oneOf(all ? ['active', 'paused', 'online', 'offline', 'specific', 'shared'] : ['active', 'paused', 'online', 'offline'])),
      type: z.optional(oneOf(['instance_type', 'group_type', 'project_type'])),
      status: z.optional(oneOf(['active', 'paused', 'online', 'offline'])),
      tag_list: z.optional(commaList()),
    }),
  );

/** GET /groups/:id/runners: `type`, `status` and `tag_list` (no `scope`, which 13.6 does not declare there). */
export const ListGroupRunnersInput = schema(() =>
  z.object({
    ...paginationParams(),
    type: z.optional(oneOf(['instance_type', 'group_type', 'project_type'])),
    status: z.optional(oneOf(['active', 'paused', 'online', 'offline'])),
    tag_list: z.optional(commaList()),
  }),
);

export const UpdateRunnerInput = schema(() => {
  const fields = {
    description: z.optional(str(1024)),
    active: z.optional(bool()),
    tag_list: z.optional(commaList()),
    run_untagged: z.optional(bool()),
    locked: z.optional(bool()),
    access_level: z.optional(oneOf(['not_protected', 'ref_protected'])),
    maximum_timeout: z.optional(z.nullable(int())),
  };
  return z.object(fields).check(atLeastOneOf(Object.keys(fields)));
});

/** Ci::Runner#online? and #status (13.6): never contacted, or active and contacted within the hour, or paused. */
const ONLINE_MS = 60 * 60 * 1000;
const isOnline = (r: RunnerRow, now: number) => r.contactedAt !== null && now - r.contactedAt.getTime() < ONLINE_MS;
const runnerStatus = (r: RunnerRow, now: number) => (r.contactedAt === null ? 'not_connected' : !r.active ? 'paused' : isOnline(r, now) ? 'online' : 'offline');

/** Entities::Runner */
export const toRunner = (r: RunnerRow, now = Date.now()) => ({
  id: r.id,
  description: r.description,
  ip_address: r.ipAddress,
  active: r.active,
  is_shared: r.runnerType === 'instance_type',
  runner_type: r.runnerType,
  name: r.name,
  online: isOnline(r, now),
  status: runnerStatus(r, now),
});

/**
 * Entities::RunnerDetails. 13.6 also shows administrators the runner's token; only its digest is stored here, so
 * it is never shown after registration.
 */
export const toRunnerDetails = (
  r: RunnerRow,
  projects: { project: ProjectRow; namespace: NamespaceRow; forksCount: number }[],
  groups: NamespaceRow[],
  config: Config,
) => ({
  ...toRunner(r),
  tag_list: r.tagList,
  run_untagged: r.runUntagged,
  locked: r.locked,
  maximum_timeout: r.maximumTimeout,
  access_level: r.accessLevel,
  version: r.version,
  revision: r.revision,
  platform: r.platform,
  architecture: r.architecture,
  contacted_at: r.contactedAt ? r.contactedAt.toISOString() : null,
  projects: projects.map((p) => toBasicProject(p.project, p.namespace, config, p.forksCount)),
  groups: groups.map((g) => toBasicGroupDetails(g, config)),
});

/** Entities::BasicGroupDetails */
const toBasicGroupDetails = (g: NamespaceRow, config: Config) => ({ id: g.id, web_url: groupWebUrl(config, g.fullPath), name: g.name });
