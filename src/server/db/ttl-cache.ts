/** A loader's answers kept for a while; `clear` forgets them all (a write that changes them). */
export interface TtlCache<Args extends unknown[], V> {
  (...args: Args): Promise<V>;
  clear(): void;
}

/**
 * What a loader answered for a key, kept for `ms` on the given clock and shared by the calls that
 * ask meanwhile (one load at a time per key); a failed load is not kept. For the configuration the
 * readers' decisions read on every call and the console changes seldom: a change reaches them
 * within `ms`. The key is the arguments joined, or what `keyOf` makes of them (when one of them,
 * a database or a transaction, does not name what is loaded).
 */
export function ttlCache<Args extends unknown[], V>(
  load: (...args: Args) => Promise<V>,
  ms: number,
  now: () => number = Date.now,
  keyOf: (...args: Args) => string = (...args) => args.join(':'),
): TtlCache<Args, V> {
  const kept = new Map<string, { until: number; value: Promise<V> }>();
  const cached = (...args: Args) => {
    const key = keyOf(...args);
    const entry = kept.get(key);
    if (entry && entry.until > now()) return entry.value;
    const value = load(...args);
    kept.set(key, { until: now() + ms, value });
    value.catch(() => kept.delete(key));
    return value;
  };
  return Object.assign(cached, { clear: () => kept.clear() });
}
