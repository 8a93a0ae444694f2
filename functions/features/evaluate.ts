// Flipper's model of a feature (its gate values, its state) and its evaluation, `isFeatureEnabled(ctx, name, actor)`,
// with GitLab's defaults for flags that were never set. Gate values are read once per request (ctx.memo).
import { findFeatures, type GateRow } from '../../db/queries/features.ts';
import type { RequestContext } from '../lib/context.ts';
import { crc32 } from './crc32.ts';
import { defaultEnabled } from './definitions.ts';
import { FEATURE_GROUPS, flipperId, type FeatureActor } from './groups.ts';

/** A persisted feature's gate values (Flipper's `gate_values`). */
export interface FeatureGates {
  boolean: boolean;
  /** Feature group names, in the order they were added. */
  groups: string[];
  /** Flipper ids (`User:42`), in the order they were added. */
  actors: string[];
  percentageOfActors: number;
  percentageOfTime: number;
}

/** A feature with no gate set (a fresh object each time: callers may fill it). */
export const emptyGates = (): FeatureGates => ({ boolean: false, groups: [], actors: [], percentageOfActors: 0, percentageOfTime: 0 });

/**
 * Gate rows (in id order) to values. A percentage gate holds one row; should two concurrent writes have left two,
 * the newest wins (the next write of that gate removes the other).
 */
export function toGates(rows: readonly GateRow[]): FeatureGates {
  const gates = emptyGates();
  for (const row of rows) {
    if (row.key === 'boolean') gates.boolean ||= row.value === 'true';
    else if (row.key === 'groups') gates.groups.includes(row.value) || gates.groups.push(row.value);
    else if (row.key === 'actors') gates.actors.includes(row.value) || gates.actors.push(row.value);
    else if (row.key === 'percentage_of_actors') gates.percentageOfActors = Number(row.value) || 0;
    else if (row.key === 'percentage_of_time') gates.percentageOfTime = Number(row.value) || 0;
  }
  return gates;
}

export type FeatureState = 'on' | 'off' | 'conditional';

/** Flipper `Feature#state`: on when fully enabled, conditional when any other gate is set, else off. */
export function featureState(g: FeatureGates): FeatureState {
  if (g.boolean || g.percentageOfTime === 100) return 'on';
  if (g.groups.length || g.actors.length || g.percentageOfActors > 0 || g.percentageOfTime > 0) return 'conditional';
  return 'off';
}

/** Flipper's scaling factor: percentages of actors have three decimal places of resolution. */
const SCALING_FACTOR = 1_000;

/**
 * Flipper's PercentageOfActors gate: the actor is in when `crc32(feature name + flipper id) % 100_000` is below
 * `percentage * 1_000`, so an actor's answer is stable and the same as Flipper's for the same name and id.
 */
export function inPercentageOfActors(featureName: string, actorFlipperId: string, percentage: number): boolean {
  return crc32(`${featureName}${actorFlipperId}`) % (100 * SCALING_FACTOR) < percentage * SCALING_FACTOR;
}

/**
 * Flipper `Feature#enabled?(actor)` over known gate values; `gates` null means the feature was never persisted,
 * which takes the definition's `default_enabled` (false without a definition).
 */
export function evaluateFeature(name: string, gates: FeatureGates | null, actor?: FeatureActor | null, random: () => number = Math.random): boolean {
  if (!gates) return defaultEnabled(name);
  if (gates.boolean) return true;
  if (actor) {
    const id = flipperId(actor);
    if (gates.actors.includes(id)) return true;
    if (gates.groups.some((group) => Object.hasOwn(FEATURE_GROUPS, group) && FEATURE_GROUPS[group]!(actor))) return true;
    if (gates.percentageOfActors > 0 && inPercentageOfActors(name, id, gates.percentageOfActors)) return true;
  }
  return gates.percentageOfTime > 0 && random() < gates.percentageOfTime / 100;
}

const memoKey = (name: string) => `feature:${name}`;

/** The gate values of the named features (null: not persisted), read in one query for those not yet read in this request. */
export function loadFeatureGates(ctx: RequestContext, names: readonly string[]): Promise<(FeatureGates | null)[]> {
  const missing = [...new Set(names)].filter((n) => !ctx.memo.has(memoKey(n)));
  if (missing.length) {
    const loaded = findFeatures(ctx.db, { names: missing });
    for (const name of missing) {
      ctx.memo.set(
        memoKey(name),
        loaded.then(({ features }) => (features.has(name) ? toGates(features.get(name)!) : null)),
      );
    }
  }
  return Promise.all(names.map((n) => ctx.memo.get(memoKey(n)) as Promise<FeatureGates | null>));
}

/** Records a feature's gates after a write in this request, so later evaluations see them without a query. */
export function rememberFeatureGates(ctx: RequestContext, name: string, gates: FeatureGates | null) {
  ctx.memo.set(memoKey(name), Promise.resolve(gates));
}

/** Whether the feature is enabled (for the actor, when given): GitLab's `Feature.enabled?(name, actor)`. */
export async function isFeatureEnabled(ctx: RequestContext, name: string, actor?: FeatureActor | null): Promise<boolean> {
  const [gates] = await loadFeatureGates(ctx, [name]);
  return evaluateFeature(name, gates ?? null, actor);
}

/** Several flags at once (one query at most): the answers in the order of `names`. */
export async function areFeaturesEnabled(ctx: RequestContext, names: readonly string[], actor?: FeatureActor | null): Promise<boolean[]> {
  const gates = await loadFeatureGates(ctx, names);
  return names.map((name, i) => evaluateFeature(name, gates[i] ?? null, actor));
}
