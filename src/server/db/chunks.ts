/** Most keys one `in (…)` list carries: long lists stay within the drivers' parameter limits. */
export const CHUNK = 500;

/** Rows of `keys` read a chunk of keys at a time, in the keys' order of chunks. */
export async function inChunks<K, T>(keys: readonly K[], read: (chunk: K[]) => Promise<T[]>, size = CHUNK) {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += size) out.push(...(await read(keys.slice(i, i + size))));
  return out;
}
