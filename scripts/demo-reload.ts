/** Empties every entity table and loads the demo data set again (`npm run demo:reload`). */
import { readConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { loadRegistry } from '../src/server/registry.js';

const config = readConfig();
const registry = loadRegistry();
const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await prepareDatabase(database, registry);
  const report = await seedDemo(database, registry, { replace: true });
  console.log(`demo data reloaded into ${database.location}:`, report);
} finally {
  await database.close();
}
