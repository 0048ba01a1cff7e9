import { createServer, type Server, Socket } from 'node:net';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, SQLITE_FILE } from '../../src/server/db/connection.js';
import { loadRegistry } from '../../src/server/registry.js';
import { buildServer } from '../../src/server/server.js';
import { fileStoreFor } from '../../src/server/storage/files.js';
import { call, signIn } from '../support/app.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

/**
 * A TCP port in front of PostgreSQL: while it is closed the database is as good as down (a new
 * connection is refused, as when the server is stopped; the open ones are cut, as at its shutdown).
 */
async function databasePort(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = new Socket();
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        upstream.connect(Number(target.port || 5432), target.hostname, () => {
          client.pipe(upstream);
          upstream.pipe(client);
        });
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      const listening = server;
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as { port: number }).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server?.listening) server.close(() => resolve());
      else resolve();
    });
  await open();
  return {
    port: () => port,
    close,
    /** Opens the port again (on the same number), unless it is open. */
    reopen: async () => {
      if (!server?.listening) await open();
    },
  };
}

/**
 * While the database cannot be reached, a call answers 503 with Retry-After and the one error
 * shape, never a 500; once it is back, the same calls work again. PostgreSQL is cut off behind a
 * port that is closed (new connections refused, open ones cut); SQLite's file is held by another
 * writer past the busy timeout.
 */
describe.each(DIALECTS)('calls while the database is unreachable on %s', (dialect) => {
  let t: TestDatabase;
  let database: Database;
  let app: FastifyInstance;
  let admin: string;
  let outage: { down(): Promise<void>; up(): Promise<void> };

  beforeAll(async () => {
    t = await createTestDatabase(dialect, 'demo');
    if (dialect === 'postgres') {
      const direct = new URL(t.location.databaseUrl as string);
      const port = await databasePort(direct);
      const proxied = new URL(direct);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port.port());
      await t.database.close();
      database = openDatabase({ databaseUrl: proxied.toString(), dataDir: t.location.dataDir, poolSize: 4 });
      outage = { down: port.close, up: port.reopen };
    } else {
      database = t.database;
      let holder: SqliteDatabase.Database | undefined;
      outage = {
        down: async () => {
          holder = new SqliteDatabase(join(t.location.dataDir, SQLITE_FILE));
          holder.exec('begin exclusive');
        },
        up: async () => {
          if (!holder?.open) return;
          holder.exec('rollback');
          holder.close();
        },
      };
    }
    app = await buildServer({
      database,
      registry: loadRegistry(),
      files: fileStoreFor(database, join(t.location.dataDir, 'files')),
      auth: { challenge: false },
    });
    admin = (await signIn(app, 'ADMIN')).accessToken;
  });
  afterAll(async () => {
    await outage?.up();
    await app?.close();
    if (dialect === 'postgres') await database?.close();
    await t?.drop();
  });

  const holiday = (day: number) =>
    call(app, {
      method: 'POST',
      url: '/api/rest/holiday',
      token: admin,
      payload: { Fecha: `2031-03-${String(day).padStart(2, '0')}`, Descripcion: 'FERIADO DE PRUEBA' },
    });

  it('answers 503 with Retry-After, in the error shape and the caller’s language, and works again once back', async () => {
    await outage.down();
    const unavailable: Array<[string, Awaited<ReturnType<typeof call>>]> = [['a write', await holiday(1)]];
    if (dialect === 'postgres')
      // PostgreSQL down: reads, a sign-in and the health check too (SQLite's readers go on).
      unavailable.push(
        ['a list', await call(app, { url: '/api/rest/country', token: admin })],
        [
          'a sign-in',
          await call(app, {
            method: 'POST',
            url: '/api/usuario/authenticate',
            payload: { username: 'ADMIN', password: 'x' },
          }),
        ],
        ['the health check', await call(app, { url: '/api/health' })],
        [
          'in Spanish',
          await call(app, {
            url: '/api/rest/country',
            token: admin,
            headers: { 'accept-language': 'es' },
          }),
        ],
      );
    for (const [what, res] of unavailable) {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(503);
      expect(res.headers['retry-after'], what).toBe('5');
      expect(res.body, what).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        messageKey: 'api.errors.SERVICE_UNAVAILABLE',
      });
    }
    expect(unavailable[0][1].body.message).toBe(
      'The database is not answering for the moment: try again in a few seconds.',
    );
    if (dialect === 'postgres')
      expect(unavailable.at(-1)?.[1].body.message).toBe(
        'La base de datos no responde por el momento: inténtelo de nuevo en unos segundos.',
      );

    await outage.up();
    const again = await holiday(2);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await call(app, { url: '/api/health' })).status).toBe(200);
  });
});
