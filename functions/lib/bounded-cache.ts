// A least-recently-used map of at most `max` entries, for values compiled from user input (glob and ref patterns):
// an isolate serves many projects, so what any one of them writes must not grow its memory. A Map keeps insertion
// order, so the oldest key is the first one; a hit moves its key to the end. Written by hand: a dozen lines, where
// an LRU library would be one more dependency in the cold-start bundle.
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {}

  /** The cached value of `key`, made by `make` (and kept) on a miss. */
  get(key: K, make: (key: K) => V): V {
    if (this.#entries.has(key)) {
      const value = this.#entries.get(key) as V;
      this.#entries.delete(key);
      this.#entries.set(key, value);
      return value;
    }
    const value = make(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
