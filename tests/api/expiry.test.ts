import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRY_JOB, ExpiryJob } from '../../src/server/features/accreditation/expiry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

describe.each(DIALECTS)('the daily expiry job on %s', (dialect) => {
  let t: TestApp;
  let clock = 0;
  /** Noon at the site (Peru, UTC−5) of a date. */
  const at = (day: string) => Date.parse(`${day}T17:00:00Z`);
  const job = (name: string) =>
    new ExpiryJob(t.db.database, t.registry, t.app.notifier, t.app.events, () => clock, name);
  const table = (name: string) => t.registry.require(name).table;
  const db = () => t.db.database.db;
  const start = siteDate('PE');

  /** An accredited worker's (requested by SOLICITANTE) SCTR SALUD (mandatory, notice 10 days) set to expire on `expiry`, the rest far off. */
  const prepare = async (skip: number[], expiry: string) => {
    const kept = table('accredited-requirement');
    const rows = (await db()
      .selectFrom(`${kept} as k`)
      .innerJoin(`${table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
      .innerJoin(`${table('accreditation')} as a`, 'a.IdPersona', 'k.IdPersona')
      .innerJoin(`${table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select(['k.IdRequisitoAcreditado', 'k.IdPersona', 'a.IdAcreditacion'])
      .where('q.Requisito', '=', 'SCTR SALUD')
      .where('r.IdUsuarioCreacion', '=', 'SOLICITANTE')
      .where('a.Estado', '=', 'A')
      .execute()) as Json[];
    const item = rows.find((r) => !skip.includes(r.IdPersona));
    expect(item).toBeDefined();
    await db()
      .updateTable(kept)
      .set({ FechaVencimiento: addDays(start, 3000) })
      .where('IdPersona', '=', item.IdPersona)
      .execute();
    await db()
      .updateTable(kept)
      .set({ FechaVencimiento: expiry })
      .where('IdRequisitoAcreditado', '=', item.IdRequisitoAcreditado)
      .execute();
    return item as { IdRequisitoAcreditado: number; IdPersona: number; IdAcreditacion: number };
  };
  const notices = async (item: number) =>
    (await db()
      .selectFrom(table('expiry-notice'))
      .select(['Umbral', 'FechaVencimiento'])
      .where('IdRequisitoAcreditado', '=', item)
      .orderBy('IdAvisoVencimiento')
      .execute()) as Json[];
  const state = async (id: number) =>
    (
      (await db()
        .selectFrom(table('accreditation'))
        .select('Estado')
        .where('IdAcreditacion', '=', id)
        .executeTakeFirstOrThrow()) as Json
    ).Estado;
  const mailsAbout = (person: number, subject: RegExp) =>
    t.mail.filter((m) => subject.test(m.subject) && m.text.includes(`(${documents.get(person)})`));
  const documents = new Map<number, string>();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const p of (await db()
      .selectFrom(table('person'))
      .select(['IdPersona', 'Documento'])
      .execute()) as Json[])
      documents.set(p.IdPersona, p.Documento);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('notices once per threshold, suspends at expiry, catches up after a gap, and reinstates after renewal', async () => {
    const expiry = addDays(start, 40);
    const item = await prepare([], expiry);

    // Before the notice window: nothing about the item.
    clock = at(addDays(expiry, -11));
    const first = await job('uno').runOnce();
    expect(first.clients).toBeGreaterThan(0);
    expect(await notices(item.IdRequisitoAcreditado)).toEqual([]);
    // The same day again: done, nothing runs.
    expect((await job('uno').runOnce()).clients).toBe(0);

    // The notice day: one notice at threshold 10, mailed to the requester and the authorisers.
    clock = at(addDays(expiry, -10));
    await job('uno').runOnce();
    expect(await notices(item.IdRequisitoAcreditado)).toEqual([{ Umbral: 10, FechaVencimiento: expiry }]);
    const soon = mailsAbout(item.IdPersona, /Requisito por vencer: SCTR SALUD/);
    expect(soon.length).toBeGreaterThan(0);
    const origin = (await db()
      .selectFrom(`${table('accreditation')} as a`)
      .innerJoin(`${table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select('r.IdUsuarioCreacion')
      .where('a.IdAcreditacion', '=', item.IdAcreditacion)
      .executeTakeFirstOrThrow()) as Json;
    const recipients = new Set(soon.map((m) => m.userId));
    expect([...recipients], origin.IdUsuarioCreacion).toContain(origin.IdUsuarioCreacion);
    expect(recipients.has('AUTORIZADOR')).toBe(true);
    // One mail per recipient.
    expect(soon).toHaveLength(recipients.size);
    // The next days: the same threshold is not noticed again.
    clock = at(addDays(expiry, -9));
    await job('dos').runOnce();
    clock = at(expiry);
    await job('uno').runOnce();
    expect(await notices(item.IdRequisitoAcreditado)).toHaveLength(1);
    expect(mailsAbout(item.IdPersona, /Requisito por vencer: SCTR SALUD/)).toHaveLength(soon.length);
    // Valid through its expiry date: still active.
    expect(await state(item.IdAcreditacion)).toBe('A');

    // The servers were down for two weeks: the first run after catches up, notices the expiry once
    // and suspends the accreditation.
    clock = at(addDays(expiry, 15));
    const late = await job('tres').runOnce();
    expect(late.suspended).toBeGreaterThan(0);
    expect(await notices(item.IdRequisitoAcreditado)).toEqual([
      { Umbral: 10, FechaVencimiento: expiry },
      { Umbral: 0, FechaVencimiento: expiry },
    ]);
    expect(await state(item.IdAcreditacion)).toBe('S');
    expect(mailsAbout(item.IdPersona, /Requisito vencido: SCTR SALUD/).length).toBeGreaterThan(0);
    expect(mailsAbout(item.IdPersona, /Requisito vencido/)[0].text).toMatch(/suspendida/);

    // Renewed (a new value and expiry): the next day's run lifts the suspension.
    await db()
      .updateTable(table('accredited-requirement'))
      .set({ FechaVencimiento: addDays(expiry, 400) })
      .where('IdRequisitoAcreditado', '=', item.IdRequisitoAcreditado)
      .execute();
    clock = at(addDays(expiry, 16));
    const next = await job('uno').runOnce();
    expect(next.reinstated).toBeGreaterThan(0);
    expect(await state(item.IdAcreditacion)).toBe('A');
    // Each change is an event of the accreditation, written with it (the outbox).
    const events = (await db()
      .selectFrom(table('accreditation-event'))
      .select('Tipo')
      .where('IdAcreditacion', '=', item.IdAcreditacion)
      .orderBy('IdEvento')
      .execute()) as Json[];
    expect(events.map((e) => e.Tipo).slice(-2)).toEqual(['suspended', 'reinstated']);
  });

  it('two runners at once: each client is processed by one of them and each notice is sent once', async () => {
    const base = addDays(start, 500);
    const expiry = addDays(base, 5);
    const taken = (await db()
      .selectFrom(table('expiry-notice'))
      .select('IdRequisitoAcreditado')
      .execute()) as Json[];
    const people = (await db()
      .selectFrom(table('accredited-requirement'))
      .select('IdPersona')
      .where('IdRequisitoAcreditado', 'in', taken.length ? taken.map((r) => r.IdRequisitoAcreditado) : [0])
      .execute()) as Json[];
    const item = await prepare(
      people.map((p) => p.IdPersona),
      expiry,
    );
    const before = mailsAbout(item.IdPersona, /SCTR SALUD/).length;
    for (let round = 0; round < 3; round++) {
      clock = at(addDays(base, round));
      const runs = await Promise.all([job('norte').runOnce(), job('sur').runOnce(), job('este').runOnce()]);
      const clients = (await db().selectFrom(table('client')).select('IdCliente').execute()).length;
      expect(runs.reduce((sum, r) => sum + r.clients, 0)).toBe(clients);
    }
    expect(await notices(item.IdRequisitoAcreditado)).toEqual([{ Umbral: 10, FechaVencimiento: expiry }]);
    const sent = mailsAbout(item.IdPersona, /SCTR SALUD/).slice(before);
    expect(sent.length).toBe(new Set(sent.map((m) => m.userId)).size);
    // The lease is free again and the day recorded.
    const lease = (await db()
      .selectFrom(table('job-lease'))
      .selectAll()
      .where('Trabajo', '=', EXPIRY_JOB)
      .execute()) as Json[];
    expect(lease.every((l) => l.Titular === null && l.UltimaFecha === addDays(base, 2))).toBe(true);
  });

  it('notices an accredited person’s internal licence falling due, and once expired, once each', async () => {
    const person = (await db()
      .selectFrom(`${table('accreditation')} as a`)
      .innerJoin(`${table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
      .select('a.IdPersona')
      .where('a.IdEntidad', '=', 'T')
      .where('a.Estado', 'in', ['A', 'S'])
      .where('r.IdUsuarioCreacion', '=', 'SOLICITANTE')
      .executeTakeFirstOrThrow()) as Json;
    const days = Number(
      (
        (await db()
          .selectFrom(table('requirement-type'))
          .select((eb) => eb.fn.max('DiasNotificarVencimiento').as('most'))
          .executeTakeFirstOrThrow()) as Json
      ).most,
    );
    expect(days).toBeGreaterThan(0);
    const expiry = addDays(start, 1000);
    const type = (await db()
      .selectFrom(table('vehicle-type'))
      .select(['IdTipoVehiculo', 'Descripcion'])
      .where('Descripcion', '=', 'CAMIONETA')
      .executeTakeFirstOrThrow()) as Json;
    const licence = (await db()
      .insertInto(table('internal-licence'))
      .values({
        IdCliente: 1,
        IdPersona: person.IdPersona,
        NumeroLicencia: '2026770001',
        IdTipoVehiculo: type.IdTipoVehiculo,
        FechaEmision: start,
        FechaVencimiento: expiry,
        Activo: 'S',
      } as never)
      .returning('IdLicenciaInterna')
      .executeTakeFirstOrThrow()) as Json;
    const licenceNotices = async () =>
      (await db()
        .selectFrom(table('licence-notice'))
        .select(['Umbral', 'FechaVencimiento'])
        .where('IdLicenciaInterna', '=', licence.IdLicenciaInterna)
        .orderBy('IdAvisoLicencia')
        .execute()) as Json[];
    const named = `2026770001 (${type.Descripcion})`;
    clock = at(addDays(expiry, -days - 1));
    await job('uno').runOnce();
    expect(await licenceNotices()).toEqual([]);
    clock = at(addDays(expiry, -days));
    await job('uno').runOnce();
    expect(await licenceNotices()).toEqual([{ Umbral: days, FechaVencimiento: expiry }]);
    const soon = mailsAbout(
      person.IdPersona,
      new RegExp(`Internal licence expiring: ${named.replace(/[()]/g, '\\$&')}`),
    );
    expect(soon.length).toBeGreaterThan(0);
    expect(soon.map((m) => m.userId)).toContain('SOLICITANTE');
    clock = at(addDays(expiry, -days + 1));
    await job('uno').runOnce();
    expect(await licenceNotices()).toHaveLength(1);
    clock = at(addDays(expiry, 1));
    await job('uno').runOnce();
    expect((await licenceNotices()).map((n) => n.Umbral)).toEqual([days, 0]);
    expect(mailsAbout(person.IdPersona, /Licencia interna vencida: 2026770001/)[0].text).toContain(
      'cannot drive a vehicle of that type in',
    );
  });
});
