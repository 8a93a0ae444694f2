// The Worker's configuration, validated once per isolate (or process). Secrets come from `wrangler secret`
// (production), `.dev.vars` (wrangler dev) or the process environment (npm start); vars from wrangler.toml.
import * as z from 'zod/mini';
import type { Config } from './lib/context.ts';
import { schema, type Input, type Output } from './lib/validate.ts';

export const EnvSchema = schema(() =>
  z.object({
    /** Postgres connection string (Neon in production). Secret. Not needed by `npm start` (embedded database). */
    DATABASE_URL: z.optional(z.string()),
    /** The public base URL clients use (custom domain); web_url, avatar_url and Link headers are built from it. */
    PUBLIC_URL: z._default(z.url(), 'http://localhost:8080'),
    /** Instance tier: gates tier-only fields such as `new_epic`. */
    INSTANCE_TIER: z._default(z.enum(['free', 'premium', 'ultimate']), 'free'),
    /**
     * GitLab's offset_pagination_limit (default 50,000; 0 turns it off): offset pagination past it on a listing that
     * offers keyset pagination (projects, events) answers 405 pointing to keyset pagination.
     */
    OFFSET_PAGINATION_LIMIT: z.optional(z.union([z.string().check(z.regex(/^\d+$/)), z.int().check(z.minimum(0))])),
    /** The largest file (bytes) a commit, the files API or a push may write; default 10 MB (10485760). */
    MAX_FILE_SIZE: z.optional(z.union([z.string().check(z.regex(/^\d+$/)), z.int().check(z.minimum(0))])),
    /**
     * The largest push (bytes of pack) `git push` may send, GitLab's receive_max_input_size; default 100 MB
     * (104857600), Cloudflare's smallest request body limit.
     */
    MAX_PUSH_SIZE: z.optional(z.union([z.string().check(z.regex(/^\d+$/)), z.int().check(z.minimum(0))])),
    /**
     * git's gc.auto: objects a project gained since its last repack after which a push starts one (its clones then
     * stream a stored pack with deltas); default 1000, 0 never repacks.
     */
    GIT_GC_AUTO: z.optional(z.union([z.string().check(z.regex(/^\d+$/)), z.int().check(z.minimum(0))])),
    /**
     * Secret: 32 random bytes, base64, the AES-GCM key for secrets the service must read back (error-tracking auth
     * tokens). `npm start` generates and keeps one under `.data/`.
     */
    ENCRYPTION_KEY: z.optional(z.string()),
    /** Local development and tests only: stand-ins for Neon's WebSocket and HTTP endpoints. */
    NEON_WS_PROXY: z.optional(z.string()),
    NEON_HTTP_ENDPOINT: z.optional(z.string()),
  }),
);

export type Env = Input<typeof EnvSchema>;

/** GitLab's default plan limit (`plan_limits.offset_pagination_limit`). */
export const DEFAULT_OFFSET_PAGINATION_LIMIT = 50_000;

export function parseConfig(env: Env): Config & Output<typeof EnvSchema> {
  const parsed = EnvSchema().parse(env);
  return {
    ...parsed,
    publicUrl: parsed.PUBLIC_URL.replace(/\/+$/, ''),
    instanceTier: parsed.INSTANCE_TIER,
    encryptionKey: parsed.ENCRYPTION_KEY,
    maxFileSize: parsed.MAX_FILE_SIZE === undefined ? undefined : Number(parsed.MAX_FILE_SIZE),
    maxPushSize: parsed.MAX_PUSH_SIZE === undefined ? undefined : Number(parsed.MAX_PUSH_SIZE),
    gitGcAuto: parsed.GIT_GC_AUTO === undefined ? undefined : Number(parsed.GIT_GC_AUTO),
    offsetPaginationLimit: parsed.OFFSET_PAGINATION_LIMIT === undefined ? DEFAULT_OFFSET_PAGINATION_LIMIT : Number(parsed.OFFSET_PAGINATION_LIMIT),
  };
}
