import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where attachments and photos live. Files are content-addressed: the key is the SHA-256 of the
 * bytes, so the same document uploaded twice is kept once and a key always names the same bytes.
 * A file is written before the database row that names it commits; a file no row names (its
 * transaction rolled back, its record deleted) is an orphan that `sweepOrphans` removes later.
 * The disk store below is the default; an S3-compatible store implements the same interface.
 */
export interface FileStore {
  /** Keeps the bytes (if not kept already) and answers their key. */
  put(bytes: Uint8Array): Promise<string>;
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /** Every key kept, with when it was written (epoch ms). */
  list(): AsyncIterable<{ key: string; written: number }>;
}

const KEY = /^[0-9a-f]{64}$/;

export function fileKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Files in a folder, two levels deep by the key's first characters: <root>/ab/cd/<key>. */
export class DiskFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a file key: ${key.slice(0, 80)}`);
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const key = fileKey(bytes);
    const path = this.path(key);
    try {
      await stat(path);
      return key;
    } catch {
      // not kept yet
    }
    await mkdir(join(this.root, key.slice(0, 2), key.slice(2, 4)), { recursive: true });
    // Written whole under another name, then renamed: a reader never sees half a file.
    const partial = `${path}.${randomUUID()}.part`;
    await writeFile(partial, bytes, { flush: true });
    await rename(partial, path);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    if (!KEY.test(key)) return undefined;
    try {
      return await readFile(this.path(key));
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; written: number }> {
    const dirs = async (path: string) => {
      try {
        return await readdir(path);
      } catch {
        return [];
      }
    };
    for (const a of await dirs(this.root))
      for (const b of await dirs(join(this.root, a)))
        for (const name of await dirs(join(this.root, a, b))) {
          if (!KEY.test(name)) continue;
          const info = await stat(join(this.root, a, b, name)).catch(() => undefined);
          if (info) yield { key: name, written: info.mtimeMs };
        }
  }
}

/**
 * Removes the files no record names. A file younger than `graceMs` is left alone: its row may
 * still be on its way to a commit. `referenced` answers which of the given keys rows name.
 */
export async function sweepOrphans(
  store: FileStore,
  referenced: (keys: string[]) => Promise<Set<string>>,
  { graceMs = 3_600_000, now = Date.now(), batch = 500 } = {},
): Promise<{ kept: number; removed: number }> {
  let kept = 0;
  let removed = 0;
  let pending: string[] = [];
  const flush = async () => {
    const named = await referenced(pending);
    for (const key of pending) {
      if (named.has(key)) kept++;
      else {
        await store.delete(key);
        removed++;
      }
    }
    pending = [];
  };
  for await (const { key, written } of store.list()) {
    if (now - written < graceMs) {
      kept++;
      continue;
    }
    pending.push(key);
    if (pending.length >= batch) await flush();
  }
  if (pending.length) await flush();
  return { kept, removed };
}
