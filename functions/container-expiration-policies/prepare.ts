// Validating and storing a project's policy change (ContainerExpirationPolicy's rules, rules.ts): used by the
// projects service for REST's nested attributes and by service.ts for GraphQL. Knows no project lookup.
import type { Db } from '../../db/client.ts';
import { upsertContainerExpirationPolicy } from '../../db/queries/container-expiration-policies.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { validationFailed } from '../lib/errors.ts';
import { effectivePolicy, nextRunAt, policyErrors, type PolicyValues } from './rules.ts';

export type PolicyChanges = Partial<PolicyValues>;

/**
 * The policy's row values with `changes` applied, or the model's field errors (a DomainError; `prefix` names the
 * association as Rails' nested attributes do: `container_expiration_policy.name_regex`). Nothing is written.
 */
export function preparePolicy(project: Pick<ProjectView, 'containerExpirationPolicy'> & { project: { createdAt: Date } }, changes: PolicyChanges, prefix = '') {
  const current = effectivePolicy(project.containerExpirationPolicy, project.project);
  const next: PolicyValues = {
    enabled: changes.enabled ?? current.enabled,
    cadence: changes.cadence ?? current.cadence,
    olderThan: changes.olderThan !== undefined ? changes.olderThan : current.olderThan,
    keepN: changes.keepN !== undefined ? changes.keepN : current.keepN,
    nameRegex: changes.nameRegex !== undefined ? changes.nameRegex : current.nameRegex,
    nameRegexKeep: changes.nameRegexKeep !== undefined ? changes.nameRegexKeep : current.nameRegexKeep,
  };
  const errors = policyErrors(next);
  if (Object.keys(errors).length) throw validationFailed(Object.fromEntries(Object.entries(errors).map(([k, v]) => [prefix + k, v])));
  // Schedulable: every save schedules the next run a cadence from now.
  return { ...next, nextRunAt: nextRunAt(next.cadence, new Date()) };
}

/** REST's `container_expiration_policy_attributes` (API names) as the policy's changes. */
export const changesFromAttributes = (a: {
  enabled?: boolean | undefined;
  cadence?: string | undefined;
  older_than?: string | undefined;
  keep_n?: number | undefined;
  name_regex?: string | undefined;
  name_regex_keep?: string | undefined;
}): PolicyChanges => ({
  enabled: a.enabled,
  cadence: a.cadence,
  olderThan: a.older_than,
  keepN: a.keep_n,
  nameRegex: a.name_regex,
  nameRegexKeep: a.name_regex_keep,
});

/** Stores prepared values (one statement). */
export const storePolicy = (db: Db, projectId: number, values: ReturnType<typeof preparePolicy>) => upsertContainerExpirationPolicy(db, projectId, values);
