/**
 * What a loader answered for a key, kept for `ms` on the given clock and shared by the calls that
 * ask meanwhile (one load at a time per key); a failed load is not kept. For the configuration the
 * readers' decisions read on every call and the console changes seldom: a change reaches them
 * within `ms`.
 */
export function ttlCache<Args extends unknown[], V>(
  load: (...args: Args) => Promise<V>,
  ms: number,
  now: () => number = Date.now,
): (...args: Args) => Promise<V> {
  const kept = new Map<string, { until: number; value: Promise<V> }>();
  return (...args: Args) => {
    const key = args.join(':');
    const entry = kept.get(key);
    if (entry && entry.until > now()) return entry.value;
    const value = load(...args);
    kept.set(key, { until: now() + ms, value });
    value.catch(() => kept.delete(key));
    return value;
  };
}
