// Flipper's evaluation: boolean, actors, feature groups (admins), percentage of actors with Flipper's CRC32
// bucketing (checked against CRC32 computed independently by node:zlib), percentage of time, and the definitions'
// defaults for flags that were never set.
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../functions/features/crc32.ts';
import { defaultEnabled, FEATURE_DEFINITIONS } from '../../functions/features/definitions.ts';
import { emptyGates, evaluateFeature, featureState, inPercentageOfActors, toGates, type FeatureGates } from '../../functions/features/evaluate.ts';
import { flipperId, userActor, type FeatureActor } from '../../functions/features/groups.ts';

const gates = (g: Partial<FeatureGates>): FeatureGates => ({ ...emptyGates(), groups: [], actors: [], ...g });
const user = (id: number, admin = false): FeatureActor => ({ type: 'User', id, admin });

describe('crc32', () => {
  it('matches zlib (Ruby Zlib.crc32 computes the same function)', () => {
    expect(crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
    expect(crc32('')).toBe(0);
    for (const s of ['my_featureUser:1', 'my_featureUser:42', 'searchProject:5', 'flagGroup:9', 'ünïcødé_flagUser:3', 'x'.repeat(1000)]) {
      expect(crc32(s), s).toBe(zlibCrc32(s));
    }
  });

  it('known values of Flipper ids', () => {
    expect(crc32('my_featureUser:1')).toBe(3977924992);
    expect(crc32('my_featureUser:2')).toBe(1947402298);
    expect(crc32('my_featureUser:42')).toBe(2331497273);
  });
});

describe('percentage of actors (Flipper: crc32(name + flipper id) % 100_000 < percentage * 1_000)', () => {
  it('agrees with the formula computed independently', () => {
    for (const name of ['my_feature', 'search', 'oauth_password_grant']) {
      for (let id = 1; id <= 200; id++) {
        for (const pct of [1, 25, 50, 99]) {
          const expected = zlibCrc32(`${name}User:${id}`) % 100_000 < pct * 1_000;
          expect(inPercentageOfActors(name, `User:${id}`, pct)).toBe(expected);
          expect(evaluateFeature(name, gates({ percentageOfActors: pct }), user(id), () => 1)).toBe(expected);
        }
      }
    }
  });

  it('known answers: my_feature at 25% lets User:1 (bucket 24992) and User:2 (2298) in, not User:42 (97273)', () => {
    const g = gates({ percentageOfActors: 25 });
    expect(evaluateFeature('my_feature', g, user(1))).toBe(true);
    expect(evaluateFeature('my_feature', g, user(2))).toBe(true);
    expect(evaluateFeature('my_feature', g, user(42))).toBe(false);
    expect(evaluateFeature('my_feature', gates({ percentageOfActors: 24 }), user(1))).toBe(false);
  });

  it('is stable per actor and close to the percentage over many actors; no actor, no answer', () => {
    const g = gates({ percentageOfActors: 30 });
    let inside = 0;
    for (let id = 1; id <= 5000; id++) {
      const first = evaluateFeature('rollout', g, user(id));
      expect(evaluateFeature('rollout', g, user(id))).toBe(first);
      if (first) inside++;
    }
    expect(inside / 5000).toBeGreaterThan(0.27);
    expect(inside / 5000).toBeLessThan(0.33);
    expect(evaluateFeature('rollout', g, null, () => 0)).toBe(false);
  });
});

describe('evaluateFeature', () => {
  it('boolean gate: on for everyone', () => {
    expect(evaluateFeature('f', gates({ boolean: true }))).toBe(true);
    expect(evaluateFeature('f', gates({ boolean: true }), user(1))).toBe(true);
    expect(evaluateFeature('f', gates({}), user(1))).toBe(false);
  });

  it('actors: only the listed flipper ids', () => {
    const g = gates({ actors: ['User:5', 'Project:7', 'Group:3'] });
    expect(evaluateFeature('f', g, user(5))).toBe(true);
    expect(evaluateFeature('f', g, user(6))).toBe(false);
    expect(evaluateFeature('f', g, { type: 'Project', id: 7 })).toBe(true);
    expect(evaluateFeature('f', g, { type: 'Group', id: 3 })).toBe(true);
    expect(evaluateFeature('f', g, { type: 'Group', id: 7 })).toBe(false);
    expect(evaluateFeature('f', g)).toBe(false);
    expect(flipperId(userActor({ id: 9, admin: false }))).toBe('User:9');
  });

  it('feature groups: admins are administrators; unknown group names match nobody', () => {
    const g = gates({ groups: ['admins'] });
    expect(evaluateFeature('f', g, user(1, true))).toBe(true);
    expect(evaluateFeature('f', g, user(2, false))).toBe(false);
    expect(evaluateFeature('f', g, { type: 'Project', id: 1 })).toBe(false);
    expect(evaluateFeature('f', g)).toBe(false);
    expect(evaluateFeature('f', gates({ groups: ['perf_team', 'toString'] }), user(1, true))).toBe(false);
  });

  it('percentage of time: random() < percentage / 100, with or without an actor', () => {
    const g = gates({ percentageOfTime: 30 });
    expect(evaluateFeature('f', g, null, () => 0.29)).toBe(true);
    expect(evaluateFeature('f', g, null, () => 0.3)).toBe(false);
    expect(evaluateFeature('f', g, user(1), () => 0.1)).toBe(true);
  });

  it('never persisted: the definition default (GitLab default_enabled), false without a definition', () => {
    expect(FEATURE_DEFINITIONS.map((d) => [d.name, d.default_enabled])).toEqual([
      ['oauth_implicit_grant', true],
      ['oauth_password_grant', true],
    ]);
    expect(evaluateFeature('oauth_password_grant', null)).toBe(true);
    expect(evaluateFeature('oauth_implicit_grant', null, user(1))).toBe(true);
    expect(evaluateFeature('no_such_definition', null)).toBe(false);
    expect(defaultEnabled('no_such_definition')).toBe(false);
    // Persisted flags ignore the default: disabled (no gates) is off.
    expect(evaluateFeature('oauth_password_grant', gates({}))).toBe(false);
  });
});

describe('gate rows and state', () => {
  it('rows to values: sets keep insertion order, the newest percentage row wins', () => {
    const g = toGates([
      { id: 1, key: 'actors', value: 'User:2' },
      { id: 2, key: 'percentage_of_time', value: '30' },
      { id: 3, key: 'groups', value: 'admins' },
      { id: 4, key: 'actors', value: 'User:1' },
      { id: 5, key: 'percentage_of_time', value: '40' },
    ]);
    expect(g).toEqual({ boolean: false, groups: ['admins'], actors: ['User:2', 'User:1'], percentageOfActors: 0, percentageOfTime: 40 });
  });

  it('Flipper state: on (boolean or 100% of time), conditional (any other gate), off', () => {
    expect(featureState(gates({ boolean: true }))).toBe('on');
    expect(featureState(gates({ percentageOfTime: 100 }))).toBe('on');
    expect(featureState(gates({ percentageOfTime: 5 }))).toBe('conditional');
    expect(featureState(gates({ percentageOfActors: 5 }))).toBe('conditional');
    expect(featureState(gates({ actors: ['User:1'] }))).toBe('conditional');
    expect(featureState(gates({ groups: ['admins'] }))).toBe('conditional');
    expect(featureState(gates({}))).toBe('off');
  });
});
