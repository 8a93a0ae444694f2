// The instance settings of GitLab 13.6 (PUT /application/settings, lib/api/settings.rb, CE and EE), in one catalog:
// each one's validator, its 13.6 default, whether it is a secret (stored encrypted) and whether this service acts on
// it. They are kept by API name in the one application_settings row; absent ones have these defaults.
import * as z from 'zod/mini';
import { VISIBILITY_NAMES } from '../lib/policy.ts';
import { bool, id, int, oneOf, str, text } from '../lib/validate.ts';
import { labelList } from '../issuables/schemas.ts';

type Setting = { input: () => z.ZodMiniType; default: unknown; acts?: true; secret?: true };

const b = (d: boolean | null, o: Partial<Setting> = {}): Setting => ({ input: () => bool(), default: d, ...o });
const i = (d: number | null, o: Partial<Setting> = {}): Setting => ({ input: () => int(), default: d, ...o });
const s = (d: string | null, o: Partial<Setting> = {}): Setting => ({ input: () => str(2000), default: d, ...o });
const t = (d: string | null, o: Partial<Setting> = {}): Setting => ({ input: () => text(100_000), default: d, ...o });
const list = (d: string[], o: Partial<Setting> = {}): Setting => ({ input: () => labelList(), default: d, ...o });
const num = (d: number): Setting => ({
  input: () =>
    z.pipe(
      z.transform((v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v)),
      z.number(),
    ),
  default: d,
});
const secret = (): Setting => ({ input: () => str(10_000), default: null, secret: true });
const visibility = (d: string, o: Partial<Setting> = {}): Setting => ({ input: () => oneOf(VISIBILITY_NAMES), default: d, ...o });

/** Gitlab::ImportSources (13.6). */
export const IMPORT_SOURCES = [
  'github',
  'bitbucket',
  'bitbucket_server',
  'gitlab',
  'google_code',
  'fogbugz',
  'git',
  'gitlab_project',
  'gitea',
  'manifest',
  'phabricator',
] as const;

export const SETTINGS = {
  abuse_notification_email: s(null),
  admin_notification_email: s(null),
  after_sign_out_path: s(null),
  after_sign_up_text: t(null),
  akismet_api_key: secret(),
  akismet_enabled: b(false),
  allow_group_owners_to_manage_ldap: b(true),
  // Outbound requests (webhooks, integrations) to local addresses: the webhook client's rule (issue 33's deliveries).
  allow_local_requests_from_web_hooks_and_services: b(false),
  allow_local_requests_from_system_hooks: b(true),
  archive_builds_in_human_readable: s(null),
  asset_proxy_enabled: b(false),
  asset_proxy_url: s(null),
  asset_proxy_secret_key: secret(),
  asset_proxy_whitelist: list([]),
  authorized_keys_enabled: b(true),
  auto_devops_domain: s(null),
  auto_devops_enabled: b(true),
  check_namespace_plan: b(false),
  commit_email_hostname: s(null),
  container_expiration_policies_enable_historic_entries: b(false),
  container_registry_token_expire_delay: i(5),
  default_artifacts_expire_in: s('30 days'),
  // The branch a new repository's first commit makes (initialize_with_readme); null: `master`.
  default_branch_name: s(null, { acts: true }),
  default_branch_protection: { input: () => z.pipe(int(), z.literal([0, 1, 2, 3])), default: 2 },
  default_ci_config_path: s(null),
  default_group_visibility: visibility('private', { acts: true }),
  // Who may create projects in a new group (its project_creation_level): 0 no one, 1 maintainers, 2 developers.
  default_project_creation: { input: () => z.pipe(int(), z.literal([0, 1, 2])), default: 2, acts: true },
  default_project_visibility: visibility('private', { acts: true }),
  default_projects_limit: i(100_000, { acts: true }),
  default_snippet_visibility: visibility('private'),
  deletion_adjourned_period: i(7),
  diff_max_patch_bytes: i(204_800),
  disabled_oauth_sign_in_sources: list([]),
  dns_rebinding_protection_enabled: b(true),
  domain_blacklist: list([]),
  domain_blacklist_enabled: b(false),
  domain_whitelist: list([]),
  dsa_key_restriction: i(0),
  ecdsa_key_restriction: i(0),
  ed25519_key_restriction: i(0),
  rsa_key_restriction: i(0),
  eks_integration_enabled: b(false),
  eks_account_id: s(null),
  eks_access_key_id: s(null),
  eks_secret_access_key: secret(),
  elasticsearch_aws: b(false),
  elasticsearch_aws_access_key: s(null),
  elasticsearch_aws_region: s('us-east-1'),
  elasticsearch_aws_secret_access_key: secret(),
  elasticsearch_indexing: b(false),
  elasticsearch_limit_indexing: b(false),
  elasticsearch_max_bulk_concurrency: i(10),
  elasticsearch_max_bulk_size_mb: i(10),
  elasticsearch_namespace_ids: { input: () => z.array(id()), default: [] },
  elasticsearch_project_ids: { input: () => z.array(id()), default: [] },
  elasticsearch_replicas: i(1),
  elasticsearch_search: b(false),
  elasticsearch_shards: i(5),
  elasticsearch_url: s('http://localhost:9200'),
  email_additional_text: t(null),
  email_author_in_body: b(false),
  email_restrictions: t(null),
  email_restrictions_enabled: b(false),
  enabled_git_access_protocol: { input: () => oneOf(['ssh', 'http', 'nil', '']), default: null },
  enforce_terms: b(false),
  external_auth_client_cert: t(null),
  external_auth_client_key: secret(),
  external_auth_client_key_pass: secret(),
  external_authorization_service_default_label: s(null),
  external_authorization_service_enabled: b(false),
  external_authorization_service_timeout: num(0.5),
  external_authorization_service_url: s(null),
  file_template_project_id: { input: () => id(), default: null },
  first_day_of_week: { input: () => z.pipe(int(), z.literal([0, 1, 6])), default: 0 },
  geo_node_allowed_ips: s('0.0.0.0/0, ::/0'),
  geo_status_timeout: i(10),
  gitaly_timeout_default: i(55),
  gitaly_timeout_fast: i(10),
  gitaly_timeout_medium: i(30),
  grafana_enabled: b(false),
  grafana_url: s('/-/grafana'),
  gravatar_enabled: b(true),
  hashed_storage_enabled: b(true),
  help_page_hide_commercial_content: b(false),
  help_page_support_url: s(null),
  help_page_text: t(null),
  help_text: t(null),
  hide_third_party_offers: b(false),
  home_page_url: s(null),
  housekeeping_enabled: b(true),
  housekeeping_full_repack_period: i(50),
  housekeeping_gc_period: i(200),
  housekeeping_incremental_repack_period: i(10),
  html_emails_enabled: b(true),
  import_sources: { input: () => valuesFrom(IMPORT_SOURCES), default: [...IMPORT_SOURCES] },
  instance_statistics_visibility_private: b(false),
  issues_create_limit: i(300),
  local_markdown_version: i(0),
  max_artifacts_size: i(100),
  max_attachment_size: i(10, { acts: true }),
  max_import_size: i(50),
  max_pages_size: i(100),
  metrics_enabled: b(false),
  metrics_host: s('localhost'),
  metrics_method_call_threshold: i(10),
  metrics_packet_size: i(1),
  metrics_pool_size: i(16),
  metrics_port: i(8089),
  metrics_sample_interval: i(15),
  metrics_timeout: i(10),
  minimum_password_length: i(8),
  mirror_available: b(true),
  mirror_capacity_threshold: i(50),
  mirror_max_capacity: i(100),
  mirror_max_delay: i(300),
  outbound_local_requests_whitelist: list([]),
  pages_domain_verification_enabled: b(true),
  password_authentication_enabled_for_git: b(true),
  password_authentication_enabled_for_web: b(true),
  performance_bar_allowed_group_path: s(null),
  plantuml_enabled: b(false),
  plantuml_url: s(null),
  polling_interval_multiplier: num(1),
  project_export_enabled: b(true),
  prometheus_metrics_enabled: b(true),
  protected_ci_variables: b(true),
  pseudonymizer_enabled: b(false),
  push_event_activities_limit: i(3),
  push_event_hooks_limit: i(3),
  raw_blob_request_limit: i(300),
  recaptcha_enabled: b(false),
  recaptcha_private_key: secret(),
  recaptcha_site_key: s(null),
  receive_max_input_size: i(null),
  repository_checks_enabled: b(true),
  repository_size_limit: i(0),
  repository_storages: { input: () => valuesFrom(['default']), default: ['default'] },
  require_two_factor_authentication: b(false),
  // Visibility levels only administrators may set on projects, groups and snippets.
  restricted_visibility_levels: { input: () => restrictedLevels(), default: [], acts: true },
  send_user_confirmation_email: b(false),
  session_expire_delay: i(10_080),
  shared_runners_enabled: b(true, { acts: true }),
  shared_runners_minutes: i(0),
  shared_runners_text: t(null),
  sign_in_text: t(null),
  signup_enabled: b(true),
  slack_app_enabled: b(false),
  slack_app_id: s(null),
  slack_app_secret: secret(),
  slack_app_verification_token: secret(),
  snippet_size_limit: i(52_428_800),
  snowplow_collector_hostname: s(null),
  snowplow_cookie_domain: s(null),
  snowplow_enabled: b(false),
  snowplow_app_id: s(null),
  sourcegraph_enabled: b(false),
  sourcegraph_public_only: b(true),
  sourcegraph_url: s(null),
  spam_check_endpoint_enabled: b(false),
  spam_check_endpoint_url: s(null),
  terminal_max_session_time: i(0),
  terms: t(null),
  throttle_authenticated_api_enabled: b(false),
  throttle_authenticated_api_period_in_seconds: i(3600),
  throttle_authenticated_api_requests_per_period: i(7200),
  throttle_authenticated_web_enabled: b(false),
  throttle_authenticated_web_period_in_seconds: i(3600),
  throttle_authenticated_web_requests_per_period: i(7200),
  throttle_unauthenticated_enabled: b(false),
  throttle_unauthenticated_period_in_seconds: i(3600),
  throttle_unauthenticated_requests_per_period: i(3600),
  time_tracking_limit_to_hours: b(false),
  two_factor_grace_period: i(48),
  unique_ips_limit_enabled: b(false),
  unique_ips_limit_per_user: i(10),
  unique_ips_limit_time_window: i(3600),
  usage_ping_enabled: b(true),
  // New users (POST /users) are external unless the request says otherwise.
  user_default_external: b(false, { acts: true }),
  user_default_internal_regex: s(null),
  user_oauth_applications: b(true),
  user_show_add_ssh_key_message: b(true),
  version_check_enabled: b(true),
  web_ide_clientside_preview_enabled: b(false),
} satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

/** Grape's `Array[String]` with `values:` (comma-separated too): an item outside them fails the whole parameter. */
function valuesFrom(values: readonly string[]) {
  return z.pipe(
    labelList(),
    z.array(z.string()).check(z.refine((items: string[]) => items.every((v) => values.includes(v)), { message: 'does not have a valid value' })),
  );
}

/** `restricted_visibility_levels`: names or levels (ApplicationSetting#restricted_visibility_levels=), kept as names. */
function restrictedLevels() {
  const NAMES: Record<string, (typeof VISIBILITY_NAMES)[number]> = {
    '0': 'private',
    '10': 'internal',
    '20': 'public',
    private: 'private',
    internal: 'internal',
    public: 'public',
  };
  return z.pipe(
    z.transform((v: unknown) => (Array.isArray(v) ? v.map(String) : v === '' || v === null ? [] : String(v).split(','))),
    z.pipe(
      z.array(z.string()),
      z.transform((levels: string[], ctx) => {
        const names = levels.map((l) => NAMES[l.trim()]);
        if (names.some((n) => n === undefined)) {
          ctx.issues.push({ code: 'custom', input: levels, message: 'does not have a valid value' });
          return z.NEVER;
        }
        return [...new Set(names as string[])];
      }),
    ),
  );
}

/** 13.6's deprecated names, accepted as the setting they stand for. */
export const ALIASES = {
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
  password_authentication_enabled: 'password_authentication_enabled_for_web',
} as const satisfies Record<string, SettingKey>;

/** The settings this service stores and returns but does not act on (README's list). */
export const STORED_ONLY = (Object.keys(SETTINGS) as SettingKey[]).filter((k) => !('acts' in SETTINGS[k]));
