// Runner API inputs (GitLab 13.6 lib/api/ci/runner.rb). Grape's rules: `token` is required everywhere (`token is
// missing`), `tag_list` is an array or a comma-separated string (CommaSeparatedToArray), `info` a hash.
import * as z from 'zod/mini';
import { bool, int, oneOf, schema, str } from '../lib/validate.ts';

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
