/**
 * Loads the schemas and the whole demo data set into a fresh temporary SQLite database and prints
 * how many records each entity received, or the first record refused and why
 * (`npm run demo:check`). The same validation and rules as the API apply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { loadRegistry } from '../src/server/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'acr-demo-'));
let failed = false;
try {
  const registry = loadRegistry();
  const database = openDatabase({ dataDir: dir });
  try {
    await prepareDatabase(database, registry);
    const report = await seedDemo(database, registry);
    const width = Math.max(...registry.entities.map((e) => e.name.length));
    for (const entity of registry.entities) {
      const count = report[entity.name] ?? 0;
      const flag = count === 0 && !entity.readOnly && !entity.hidden ? '  <- no demo records' : '';
      console.log(
        `${entity.module.padEnd(15)} ${entity.name.padEnd(width)} ${String(count).padStart(6)}${flag}`,
      );
    }
    console.log(`${registry.entities.length} entities`);
  } finally {
    await database.close();
  }
} catch (error) {
  failed = true;
  console.error((error as Error).message);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
