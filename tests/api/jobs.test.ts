import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseLost, Leases } from '../../src/server/jobs/leases.js';
import { FILE_TABLES, fileKey } from '../../src/server/storage/files.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

describe.each(DIALECTS)('background jobs and kept files on %s', (dialect) => {
  let t: TestApp;
  let client: number;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    client = (
      (await t.db.database.db
        .selectFrom(t.registry.require('client').table)
        .select('IdCliente')
        .orderBy('IdCliente')
        .executeTakeFirstOrThrow()) as { IdCliente: number }
    ).IdCliente;
  });
  afterAll(() => t?.close());

  it('gives a job to one holder at a time, fences a holder that lost it, and lets another take it over once run out', async () => {
    let clock = Date.parse('2026-11-26T12:00:00Z');
    const now = () => clock;
    const db = t.db.database.db;
    const first = new Leases(db, t.registry, 'first', now, 30_000);
    const second = new Leases(db, t.registry, 'second', now, 30_000);
    const job = `PRUEBA ${dialect}`;

    // Two at once: exactly one takes it.
    const taken = await Promise.all([first.take(client, job), second.take(client, job)]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    const [holder, other] = taken[0] ? [first, second] : [second, first];
    expect(await other.held(client, job)).toBe(true);
    // Renewed while it works: still its own after its first length has passed.
    clock += 20_000;
    await holder.fence(client, job);
    clock += 20_000;
    expect(await other.take(client, job)).toBe(false);

    // The holder stops renewing (it died): once run out, the other takes it over…
    clock += 31_000;
    expect(await holder.held(client, job)).toBe(false);
    expect(await other.take(client, job)).toBe(true);
    // …and the old holder, waking up, writes nothing more: its fence rolls its transaction back.
    const marker = `${job} escrito`;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto(t.registry.require('job-lease').table)
          .values({
            IdCliente: client,
            Trabajo: marker,
            IdUsuarioCreacion: 'PRUEBA',
            FechaCreacion: new Date(clock).toISOString(),
          })
          .execute();
        await holder.fence(client, job, trx);
      }),
    ).rejects.toBeInstanceOf(LeaseLost);
    const written = await db
      .selectFrom(t.registry.require('job-lease').table)
      .select('Trabajo')
      .where('Trabajo', '=', marker)
      .execute();
    expect(written).toEqual([]);

    // Released when done: free for anyone at once; a day recorded is not run again that day.
    await other.release(client, job, { doneOn: '2026-11-26' });
    expect(await holder.take(client, job, { notDoneOn: '2026-11-26' })).toBe(false);
    expect(await holder.take(client, job, { notDoneOn: '2026-11-27' })).toBe(true);
  });

  it('deletes a client with the job leases a background job took for it, not refused as in use', async () => {
    const admin = (await signIn(t.app, 'ADMIN')).accessToken;
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/rest/client',
      token: admin,
      payload: { Cliente: 'CLIENTE DE PASO', IdPais: 'PE' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    // The daily check takes its lease for the new client between its creation and its deletion.
    expect(
      await new Leases(t.db.database.db, t.registry, 'job', Date.now, 30_000).take(id, 'VENCIMIENTOS'),
    ).toBe(true);
    const removed = await call(t.app, { method: 'DELETE', url: `/api/rest/client/${id}`, token: admin });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const leases = await t.db.database.db
      .selectFrom(t.registry.require('job-lease').table)
      .select('IdArriendo')
      .where('IdCliente', '=', id)
      .execute();
    expect(leases).toEqual([]);
  });

  it('keeps a file with the transaction that names it, in parts, read whole or piece by piece', async () => {
    const files = t.app.files;
    const bytes = randomBytes(700 * 1024);
    const key = fileKey(bytes);
    const db = t.db.database.db;
    if (dialect === 'postgres') {
      // Written in a transaction rolled back: nothing kept.
      await expect(
        db.transaction().execute(async (trx) => {
          await files.put(bytes, trx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await files.get(key)).toBeUndefined();
      expect(await files.stream(key)).toBeUndefined();
    }
    await db.transaction().execute(async (trx) => {
      expect(await files.put(bytes, trx)).toBe(key);
    });
    // The same bytes again: the same key, kept once.
    expect(await files.put(bytes)).toBe(key);
    expect((await files.get(key))?.equals(bytes)).toBe(true);
    const pieces: Buffer[] = [];
    for await (const piece of (await files.stream(key)) as AsyncIterable<Uint8Array>)
      pieces.push(Buffer.from(piece));
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    if (dialect === 'postgres') {
      // In the database, a quarter of a megabyte per part: three parts, and no file on a disk.
      expect(pieces.map((p) => p.length)).toEqual([262_144, 262_144, 192_512]);
      const parts = await db.selectFrom(FILE_TABLES.part).select('Parte').where('Clave', '=', key).execute();
      expect(parts).toHaveLength(3);
    }
    const listed: string[] = [];
    for await (const { key: k } of files.list()) listed.push(k);
    expect(listed).toContain(key);
    await files.delete(key);
    expect(await files.get(key)).toBeUndefined();
  });
});
