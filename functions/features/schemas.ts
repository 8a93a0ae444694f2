// Parameters and entities of the Features API (GitLab `lib/api/features.rb`, `lib/api/entities/feature.rb`).
import * as z from 'zod/mini';
import { bool, scalarStr, schema, type Output } from '../lib/validate.ts';
import type { FeatureDefinition } from './definitions.ts';
import { featureState, type FeatureGates } from './evaluate.ts';

// Grape `types: [String, Integer]` (and String): numbers and JSON booleans arrive as their text; at most 255
// characters and no control characters, so nothing absurd reaches a query or is echoed in a message.
const text = () => scalarStr(255);

/** POST /features/:name. `key` is mutually exclusive with each actor parameter (checked by the route). */
export const SetFeatureInput = schema(() =>
  z.object({
    value: text(),
    key: z.optional(text()),
    feature_group: z.optional(text()),
    user: z.optional(text()),
    group: z.optional(text()),
    project: z.optional(text()),
    // GitLab's `force` skips the check of a name against the YAML definitions, which only development and test
    // instances enforce; a production instance (this one) takes any valid name, so it is validated and ignored.
    force: z.optional(bool()),
  }),
);
export type SetFeatureParams = Output<typeof SetFeatureInput>;

/** The actor parameters, in the order of GitLab's `mutually_exclusive :key, ...` declarations. */
export const ACTOR_PARAMS = ['feature_group', 'user', 'group', 'project'] as const;

type Gate =
  { key: 'boolean'; value: boolean } | { key: 'groups' | 'actors'; value: string[] } | { key: 'percentage_of_actors' | 'percentage_of_time'; value: number };

/**
 * Entities::Feature: `name`, `state`, and the gates (boolean first and always, then groups, actors, percentage of
 * actors, percentage of time; zero percentages and empty sets are left out, as the entity does).
 */
export function toFeature(name: string, g: FeatureGates) {
  const gates: Gate[] = [{ key: 'boolean', value: g.boolean }];
  if (g.groups.length) gates.push({ key: 'groups', value: g.groups });
  if (g.actors.length) gates.push({ key: 'actors', value: g.actors });
  if (g.percentageOfActors) gates.push({ key: 'percentage_of_actors', value: g.percentageOfActors });
  if (g.percentageOfTime) gates.push({ key: 'percentage_of_time', value: g.percentageOfTime });
  return { name, state: featureState(g), gates };
}

/** Entities::Feature::Definition (Feature::Definition::PARAMS), plus the description the registry carries. */
export const toFeatureDefinition = (d: FeatureDefinition) => ({
  name: d.name,
  introduced_by_url: null,
  rollout_issue_url: null,
  milestone: null,
  log_state_changes: null,
  type: d.type,
  group: null,
  default_enabled: d.default_enabled,
  description: d.description,
});
