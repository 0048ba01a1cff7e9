import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskFileStore, fileKey, sweepOrphans } from '../../src/server/storage/files.js';

describe('the disk file store', () => {
  const root = mkdtempSync(join(tmpdir(), 'acr-files-'));
  const store = new DiskFileStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps a file by its content: the same bytes twice are one file under one key', async () => {
    const pdf = Buffer.from('%PDF-1.4 certificado SCTR');
    const key = await store.put(pdf);
    expect(key).toBe(fileKey(pdf));
    expect(await store.put(Buffer.from(pdf))).toBe(key);
    expect((await store.get(key))?.toString()).toBe(pdf.toString());
    const keys = [];
    for await (const entry of store.list()) keys.push(entry.key);
    expect(keys).toEqual([key]);
    expect(await store.get('../../etc/passwd')).toBeUndefined();
    expect(await store.get('0'.repeat(64))).toBeUndefined();
  });

  it('sweeps the files no row names, once they are older than the grace', async () => {
    const named = await store.put(Buffer.from('named by a detail line'));
    const orphan = await store.put(Buffer.from('its transaction rolled back'));
    const young = await store.put(Buffer.from('its row is committing now'));
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const key of [named, orphan])
      utimesSync(join(root, key.slice(0, 2), key.slice(2, 4), key), old, old);
    const result = await sweepOrphans(store, async (keys) => new Set(keys.filter((k) => k === named)));
    expect(result.removed).toBe(1);
    expect(await store.get(orphan)).toBeUndefined();
    expect(await store.get(named)).toBeDefined();
    expect(await store.get(young)).toBeDefined();
  });
});
