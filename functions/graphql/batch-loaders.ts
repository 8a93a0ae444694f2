// The DataLoaders every domain's loaders.ts builds its loaders from (one answer per key; one answer per parent and
// arguments). Kept apart from loaders.ts, which imports every domain's loaders: a domain importing these from there
// would close a runtime import cycle.
import DataLoader from 'dataloader';

/** JSON with object keys sorted (undefined members dropped): equal arguments, equal strings. */
export const stableKey = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );

/**
 * A loader of one answer per (parent, arguments): the keys of one tick that share their arguments (stableKey) are
 * answered by one `fetch` over all their parents (which returns one answer per parent, in order). A connection
 * nested under a list of N parents costs one query per distinct set of arguments, not N.
 */
export const perParent = <P, A, T>(fetch: (parents: P[], args: A) => Promise<T[]>) =>
  new DataLoader<{ parent: P; args: A }, T, string>(
    async (keys) => {
      const batches = new Map<string, { args: A; at: number[] }>();
      keys.forEach((k, i) => {
        const s = stableKey(k.args);
        const batch = batches.get(s);
        if (batch) batch.at.push(i);
        else batches.set(s, { args: k.args, at: [i] });
      });
      // All batches answer together (one tick), so what the answers' resolvers load next batches together too.
      const out = new Array<T>(keys.length);
      await Promise.all(
        [...batches.values()].map(async (batch) => {
          const answers = await fetch(
            batch.at.map((i) => keys[i]!.parent),
            batch.args,
          );
          batch.at.forEach((i, j) => (out[i] = answers[j]!));
        }),
      );
      return out;
    },
    { cacheKeyFn: stableKey },
  );

/** A loader over a verb that answers one value per key, in the order asked; `cacheKey` names keys that are objects. */
export const each = <K, T>(verb: (keys: readonly K[]) => Promise<T[]>, cacheKey?: (key: K) => unknown) =>
  new DataLoader<K, T, unknown>((keys) => verb(keys), cacheKey ? { cacheKeyFn: cacheKey } : {});
