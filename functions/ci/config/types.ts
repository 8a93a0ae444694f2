// The normalized `.gitlab-ci.yml`: what GitLab 13.6's YamlProcessor hands to pipeline creation (stages, jobs with
// their defaults applied, the workflow rules), with rules/only/except kept for the evaluation in ../plan.ts.

export type When = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';

export interface CiRule {
  if?: string;
  changes?: string[];
  exists?: string[];
  when?: When | 'never';
  startIn?: string;
  allowFailure?: boolean;
}

/** Build::Policy's hash form: every part given must hold for `only`; any part holding excludes for `except`. */
export interface CiPolicy {
  refs?: string[];
  variables?: string[];
  changes?: string[];
  kubernetes?: 'active';
}

export interface CiNeed {
  name: string;
  artifacts: boolean;
}

export interface CiJob {
  name: string;
  stage: string;
  script: string[] | null;
  trigger: unknown;
  beforeScript: string[] | null;
  afterScript: string[] | null;
  image: unknown;
  services: unknown;
  variables: Record<string, string>;
  when: When;
  startIn: string | null;
  allowFailure: boolean;
  needs: CiNeed[] | null;
  dependencies: string[] | null;
  rules: CiRule[] | null;
  only: CiPolicy | null;
  except: CiPolicy | null;
  environment: unknown;
  artifacts: unknown;
  cache: unknown;
  tags: string[];
  retry: unknown;
  timeout: string | null;
  parallel: number | null;
  interruptible: boolean | null;
  coverage: string | null;
  resourceGroup: string | null;
}

export interface CiConfig {
  stages: string[];
  jobs: CiJob[];
  variables: Record<string, string>;
  workflow: { rules: CiRule[] } | null;
  /** The configuration after includes and `extends`, as GitLab's lint shows it (`merged_yaml`). */
  merged: Record<string, unknown>;
}

export type ParseResult = { ok: true; config: CiConfig; warnings: string[] } | { ok: false; errors: string[]; warnings: string[] };
