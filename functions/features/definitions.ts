// Feature flag definitions: GitLab keeps one YAML file per flag (config/feature_flags/<type>/<name>.yml); here
// they are a small registry in code. A flag that has never been set (no `features` row) takes its definition's
// `default_enabled`; a flag with no definition is off until set (GitLab's `Feature::Definition.default_enabled?`).
export interface FeatureDefinition {
  name: string;
  /** GitLab's flag types: `development` (short lived), `ops` (long-lived operational switches). */
  type: 'development' | 'ops';
  default_enabled: boolean;
  description: string;
}

export const FEATURE_DEFINITIONS: readonly FeatureDefinition[] = [
  {
    name: 'oauth_implicit_grant',
    type: 'ops',
    default_enabled: true,
    description: 'Allows the OAuth 2.0 implicit grant (response_type=token at /oauth/authorize).',
  },
  {
    name: 'oauth_password_grant',
    type: 'ops',
    default_enabled: true,
    description: 'Allows the OAuth 2.0 resource owner password credentials grant (grant_type=password at /oauth/token).',
  },
];

const BY_NAME = new Map(FEATURE_DEFINITIONS.map((d) => [d.name, d]));

export const findDefinition = (name: string): FeatureDefinition | undefined => BY_NAME.get(name);

/** The definition's default, false for a flag without one. */
export const defaultEnabled = (name: string): boolean => BY_NAME.get(name)?.default_enabled ?? false;
