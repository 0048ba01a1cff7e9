/**
 * Server entry: reads the environment, prepares the database once, then serves the API and the
 * console from one process, or from WEB_CONCURRENCY processes sharing the port.
 */
import cluster from 'node:cluster';
import { readConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { isEmpty, seedDemo } from './demo/seed.js';
import { CLIENT_DIR } from './paths.js';
import { prepareDatabase } from './prepare.js';
import { loadRegistry } from './registry.js';
import { buildServer } from './server.js';
import { fileStoreFor } from './storage/files.js';

const config = readConfig();
const registry = loadRegistry();

async function prepare(): Promise<void> {
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const sync = await prepareDatabase(database, registry);
    console.log(JSON.stringify({ msg: 'database ready', database: database.location, ...sync }));
    for (const refused of sync.refusedIndexes)
      console.warn(
        JSON.stringify({ msg: 'unique index not made: rows already stored break it', ...refused }),
      );
    if (config.demo && (await isEmpty(database, registry))) {
      console.log(
        JSON.stringify({
          msg: 'demo data loaded into the empty database',
          loaded: await seedDemo(database, registry, { files: fileStoreFor(database, config.filesDir) }),
        }),
      );
    }
  } finally {
    await database.close();
  }
}

async function serve(): Promise<void> {
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const server = await buildServer({
    database,
    registry,
    logLevel: config.logLevel,
    clientDir: config.production ? CLIENT_DIR : undefined,
    files: fileStoreFor(database, config.filesDir),
    gateDecisionBudgetMs: config.gateDecisionBudgetMs,
    webhooks: { ca: config.webhookCa },
    auth: {
      secret: config.authSecret,
      keyPolicy: { rotateAfterDays: config.signingKeyDays },
      challenge: config.signInChallenge ? {} : false,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      mailConsole: config.mailConsole,
      smppUrl: config.smppUrl,
      smppSource: config.smppSource,
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      await server.close();
      await database.close();
      process.exit(0);
    });
  }
  if (!config.signInChallenge)
    server.log.warn(
      'sign-in challenge off (SIGN_IN_CHALLENGE=off): sign-in calls are not asked to prove work',
    );
  await server.listen({ port: config.port, host: config.host });
}

if (cluster.isPrimary) {
  await prepare();
  if (config.workers > 1) {
    for (let i = 0; i < config.workers; i++) cluster.fork();
    let stopping = false;
    // A worker that dies takes the service down with it, for the process manager to restart whole.
    cluster.on('exit', (worker, code) => {
      if (stopping) return;
      console.error(JSON.stringify({ msg: 'worker exited', pid: worker.process.pid, code }));
      process.exit(1);
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopping = true;
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
        process.exit(0);
      });
    }
  } else {
    await serve();
  }
} else {
  await serve();
}
