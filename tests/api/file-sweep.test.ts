import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencedFiles } from '../../src/server/features/accreditation/file-sweep.js';
import { sweepOrphans } from '../../src/server/storage/files.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

describe.each(DIALECTS)('the orphan file sweep on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('removes a file no row names and keeps every file a request line or a kept requirement names', async () => {
    const table = (name: string) => t.registry.require(name).table;
    const keysOf = async (name: string) =>
      (
        await t.db.database.db
          .selectFrom(table(name))
          .select('ClaveArchivo')
          .where('ClaveArchivo', 'is not', null)
          .execute()
      ).map((row) => String((row as { ClaveArchivo: unknown }).ClaveArchivo));
    const named = [...(await keysOf('request-detail')), ...(await keysOf('accredited-requirement'))];
    expect(named.length).toBeGreaterThan(0);
    const orphan = await t.app.files.put(Buffer.from('%PDF-1.4 a transaction rolled back'));

    const result = await sweepOrphans(t.app.files, referencedFiles(t.db.database, t.registry), {
      now: Date.now() + 2 * 3_600_000,
    });
    expect(result.removed).toBe(1);
    expect(await t.app.files.get(orphan)).toBeUndefined();
    for (const key of new Set(named)) expect(await t.app.files.get(key)).toBeDefined();
  });
});
