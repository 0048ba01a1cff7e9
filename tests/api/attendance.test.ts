import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceTables } from '../../src/server/features/attendance/compute.js';
import { drainMarkedDays } from '../../src/server/features/attendance/worker.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { anotherClientAdmin, call, menuIdOf, startTestApp, type TestApp } from '../support/app.js';
import { attendanceFixture, figures, lima, mondayBefore } from '../support/attendance.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

describe.each(DIALECTS)('attendance on %s', (dialect) => {
  let t: TestApp;
  // Days of last week (the device's clock is checked against the real one), a Monday first.
  const today = siteDate('PE');
  const D = mondayBefore(today);
  const N = addDays(D, 1);
  let f: Awaited<ReturnType<typeof attendanceFixture>>;
  let crew: number[];
  const db = () => t.db.database.db;
  const as: Awaited<ReturnType<typeof attendanceFixture>>['as'] = (...args) => f.as(...args);
  const batch: Awaited<ReturnType<typeof attendanceFixture>>['batch'] = (marks) => f.batch(marks);
  const dayRow = (person: number, day: string) => f.dayRow(person, day);
  const settled = () => f.settled();
  const assign = (person: number, schedule: string, anchor = D) => f.assign(person, schedule, anchor);

  beforeAll(async () => {
    t = await startTestApp(dialect, { gateDecisionBudgetMs: 60_000 });
    f = await attendanceFixture(t, { prefix: `AS${dialect[0].toUpperCase()}`, count: 7, today, from: D });
    crew = f.crew;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("computes a night turn across midnight from a turnstile's batch: the day it started, with its overtime", async () => {
    const [night] = crew;
    await assign(night, 'GUARDIA NOCHE 14X7');
    const sent = await batch([
      { person: night, at: lima(D, '18:50'), direction: 'E' },
      { person: night, at: lima(N, '07:40'), direction: 'S' },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expect.poll(async () => (await dayRow(night, D))?.Estado, { timeout: 10_000 }).toBe('WORKED');
    await settled();
    expect(figures(await dayRow(night, D))).toMatchObject({
      Fecha: D,
      IdCliente: 1,
      IdTipoHorario: f.schedules['GUARDIA NOCHE 14X7'],
      Estado: 'WORKED',
      EntradaPlan: '19:00',
      SalidaPlan: '07:00',
      PrimeraEntrada: lima(D, '18:50'),
      UltimaSalida: lima(N, '07:40'),
      MinutosTrabajados: 710,
      MinutosRefrigerio: 60,
      MinutosTardanza: 0,
      MinutosExtraAntes: 10,
      MinutosExtraDespues: 40,
      Marcas: 2,
      Alertas: null,
      Cerrado: 'N',
      Pendiente: 'N',
    });
    // The next morning's exit is not the next day's: that day has no marking of its own.
    expect((await dayRow(night, N))?.Marcas ?? 0).toBe(0);
  });

  it('gives the same result whatever order and batches the markings arrive in, late ones included', async () => {
    const [, inOrder, reversed] = crew;
    await assign(inOrder, 'ADMINISTRATIVO LUNES A VIERNES');
    await assign(reversed, 'ADMINISTRATIVO LUNES A VIERNES');
    const day = [
      { at: lima(N, '08:14'), direction: 'E' as const },
      { at: lima(N, '13:05'), direction: 'S' as const },
      { at: lima(N, '13:58'), direction: 'E' as const },
      { at: lima(N, '18:20'), direction: 'S' as const },
    ];
    expect((await batch(day.map((m) => ({ ...m, person: inOrder })))).status).toBe(200);
    // The other one's markings come the other way round, one batch each (a device offline, then late).
    for (const m of [...day].reverse()) expect((await batch([{ ...m, person: reversed }])).status).toBe(200);
    await settled();
    const one = await dayRow(inOrder, N);
    expect(one).toMatchObject({
      Estado: 'WORKED',
      MinutosTardanza: 14,
      // Out 53 minutes at lunch: the other 7 of the hour's break are deducted.
      MinutosTrabajados: 546,
      MinutosRefrigerio: 7,
      MinutosExtraDespues: 80,
      MinutosSalidaTemprana: 0,
      Marcas: 4,
    });
    expect(figures(await dayRow(reversed, N))).toEqual(figures(one));

    // A late marking of that day (a device that was offline since morning): the day is recomputed.
    expect((await batch([{ person: inOrder, at: lima(N, '07:55'), direction: 'E' }])).status).toBe(200);
    await expect.poll(async () => (await dayRow(inOrder, N)).MinutosTardanza, { timeout: 10_000 }).toBe(0);
    await settled();
    expect(await dayRow(inOrder, N)).toMatchObject({
      Marcas: 5,
      Alertas: 'ENTRY_WITHOUT_EXIT',
      PrimeraEntrada: lima(N, '07:55'),
    });
  });

  it('flags an entry with no exit instead of guessing, and keeps a closed day as it was (Pendiente)', async () => {
    const [, , , lonely, closed] = crew;
    await assign(lonely, 'ADMINISTRATIVO LUNES A VIERNES');
    await assign(closed, 'ADMINISTRATIVO LUNES A VIERNES');
    expect((await batch([{ person: lonely, at: lima(D, '08:00'), direction: 'E' }])).status).toBe(200);
    expect(
      (
        await batch([
          { person: closed, at: lima(D, '08:00'), direction: 'E' },
          { person: closed, at: lima(D, '17:00'), direction: 'S' },
        ])
      ).status,
    ).toBe(200);
    await settled();
    expect(await dayRow(lonely, D)).toMatchObject({
      Estado: 'INCOMPLETE',
      Alertas: 'ENTRY_WITHOUT_EXIT',
      MinutosTrabajados: 0,
    });
    const before = await dayRow(closed, D);
    expect(before).toMatchObject({ Estado: 'WORKED', MinutosTrabajados: 480 });
    // The period is closed (as closing a payroll period does): a later marking changes nothing paid.
    await db()
      .updateTable('attendance_day')
      .set({ Cerrado: 'S' })
      .where('IdPersona', '=', closed)
      .where('Fecha', '=', D)
      .execute();
    expect((await batch([{ person: closed, at: lima(D, '19:30'), direction: 'E' }])).status).toBe(200);
    await expect.poll(async () => (await dayRow(closed, D)).Pendiente, { timeout: 10_000 }).toBe('S');
    expect(figures(await dayRow(closed, D))).toEqual({ ...figures(before), Cerrado: 'S', Pendiente: 'S' });
  });

  it('computes a period on demand: absences on working days, rest days, per person or for everyone tracked', async () => {
    const [, , , , , absent] = crew;
    await assign(absent, 'ADMINISTRATIVO LUNES A VIERNES');
    const computed = await as('admin', 'POST', '/api/asistencia/calcular', {
      desde: D,
      hasta: addDays(D, 6),
      IdPersona: absent,
    });
    expect(computed.status, JSON.stringify(computed.body)).toBe(200);
    expect(computed.body.result.dias).toBe(7);
    const days = await as(
      'admin',
      'GET',
      `/api/asistencia/personas/${absent}/dias?desde=${D}&hasta=${addDays(D, 6)}`,
    );
    expect(days.status).toBe(200);
    expect(days.body.result.dias.map((d: Json) => d.Estado)).toEqual([
      'ABSENT',
      'ABSENT',
      'ABSENT',
      'ABSENT',
      'ABSENT',
      'REST',
      'REST',
    ]);
    expect(days.body.result.persona).toMatchObject({ IdPersona: absent, Compania: expect.any(String) });

    // The night worker's calendar holds his markings too.
    const [night] = crew;
    const calendar = await as('admin', 'GET', `/api/asistencia/personas/${night}/dias?desde=${D}&hasta=${D}`);
    expect(calendar.body.result.marcaciones.map((m: Json) => m.Funcion)).toEqual(['E', 'S']);
    // Everyone tracked: the crew's six among them, less the closed day (kept, not written).
    const all = await as('admin', 'POST', '/api/asistencia/calcular', { desde: D, hasta: D });
    expect(all.status).toBe(200);
    expect(all.body.result.dias).toBeGreaterThanOrEqual(5);
  });

  it("keeps a weekly schedule's hours per weekday: a Saturday's half day, and no weekday's hours overlapping another's", async () => {
    const saturday = addDays(D, 5);
    const [, , , , , , worker] = crew;
    await assign(worker, 'ADMINISTRATIVO CON SÁBADO MEDIO DÍA');
    expect(
      (
        await batch([
          { person: worker, at: lima(saturday, '07:58'), direction: 'E' },
          { person: worker, at: lima(saturday, '13:20'), direction: 'S' },
        ])
      ).status,
    ).toBe(200);
    await settled();
    expect(await dayRow(worker, saturday)).toMatchObject({
      Estado: 'WORKED',
      EntradaPlan: '08:00',
      SalidaPlan: '13:00',
      MinutosRefrigerio: 0,
      MinutosTrabajados: 322,
      MinutosExtraDespues: 20,
    });
    // Sunday has no row: a rest day.
    await as('admin', 'POST', '/api/asistencia/calcular', {
      desde: addDays(D, 6),
      hasta: addDays(D, 6),
      IdPersona: worker,
    });
    expect((await dayRow(worker, addDays(D, 6))).Estado).toBe('REST');

    const weekly = await as('admin', 'POST', '/api/rest/schedule-type', {
      Descripcion: `TURNOS ROTATIVOS ${dialect.toUpperCase()}`,
      Tipo: 'S',
      TurnoDiario: 'N',
      MinutosFlexibles: 0,
      ToleranciaMinutos: 5,
      HorasExtraAntes: 0,
      HorasExtraDespues: 60,
      Activo: 'S',
    });
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    const day = (Dia: number, HoraEntrada: string, HoraSalida: string, extra: object = {}) =>
      as('admin', 'POST', '/api/rest/schedule-day', {
        IdTipoHorario: weekly.body.id,
        Dia,
        HoraEntrada,
        HoraSalida,
        ...extra,
      });
    expect(
      (await day(1, '20:00', '08:00', { InicioRefrigerio: '01:00', FinRefrigerio: '02:00' })).status,
    ).toBe(201);
    const overlapping = await day(2, '06:00', '14:00');
    expect([overlapping.status, overlapping.body.message]).toEqual([
      400,
      'These hours overlap those of Monday.',
    ]);
    const outside = await day(3, '08:00', '17:00', { InicioRefrigerio: '17:00', FinRefrigerio: '18:00' });
    expect([outside.status, outside.body.message]).toEqual([
      400,
      'The break must lie within the working hours.',
    ]);
    // Sunday's night ends on Monday morning, before Monday's own night: no overlap.
    expect((await day(7, '22:00', '07:00')).status).toBe(201);
    const early = await day(1, '06:00', '14:00');
    expect(early.status).toBe(409);
    const cycle = await as('admin', 'POST', '/api/rest/schedule-day', {
      IdTipoHorario: f.schedules['GUARDIA NOCHE 14X7'],
      Dia: 1,
      HoraEntrada: '19:00',
      HoraSalida: '07:00',
    });
    expect([cycle.status, cycle.body.message]).toEqual([
      400,
      'Only a weekly schedule has hours per weekday.',
    ]);
    const again = await day(1, '08:00', '17:00');
    expect(again.status).toBe(409);
    const broken = await as('admin', 'POST', '/api/rest/schedule-type', {
      Descripcion: `GUARDIA MAL ${dialect.toUpperCase()}`,
      Tipo: 'C',
      TurnoDiario: 'D',
      DiasTrabajo: 14,
      DiasDescanso: 7,
      MinutosFlexibles: 0,
      HoraEntrada: '07:00',
      ToleranciaMinutos: 5,
      HorasExtraAntes: 0,
      HorasExtraDespues: 60,
      Activo: 'S',
    });
    expect([broken.status, broken.body.message]).toEqual([400, 'Enter the entry and exit times.']);
  });

  it('answers bad input with its message, and keeps to whom the session reaches', async () => {
    const [night] = crew;
    const reversed = await as('admin', 'GET', `/api/asistencia/personas/${night}/dias?desde=${N}&hasta=${D}`);
    expect([reversed.status, reversed.body.message]).toEqual([400, 'The end date is before the start date.']);
    const long = await as('admin', 'POST', '/api/asistencia/calcular', { desde: D, hasta: addDays(D, 90) });
    expect([long.status, long.body.message]).toEqual([400, 'Choose at most 62 days.']);
    expect(
      (await as('admin', 'GET', `/api/asistencia/personas/999999/dias?desde=${D}&hasta=${D}`)).status,
    ).toBe(404);
    expect(
      (await as('admin', 'GET', `/api/asistencia/personas/${night}/dias?desde=bad&hasta=${D}`)).status,
    ).toBe(400);
    // No attendance screen in their menus: refused.
    for (const who of ['requester', 'authoriser']) {
      expect(
        (await as(who, 'GET', `/api/asistencia/personas/${night}/dias?desde=${D}&hasta=${D}`)).status,
      ).toBe(403);
      expect((await as(who, 'POST', '/api/asistencia/calcular', { desde: D, hasta: D })).status).toBe(403);
    }
    // Another client's administrator finds nobody of this client.
    const other = await anotherClientAdmin(t, [await menuIdOf(t, '/asistencia/personas')]);
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `/api/asistencia/personas/${night}/dias?desde=${D}&hasta=${D}`,
          token: other,
        })
      ).status,
    ).toBe(404);
    const found = await call(t.app, {
      method: 'GET',
      url: `/api/asistencia/personas?texto=${f.documents.get(night)}`,
      token: other,
    });
    expect(found.body.result).toEqual([]);
    const mine = await as('admin', 'GET', `/api/asistencia/personas?texto=${f.documents.get(night)}`);
    expect(mine.body.result).toEqual([
      expect.objectContaining({ IdPersona: night, Documento: f.documents.get(night) }),
    ]);
  });

  it('drains what is marked when no process was told (a marking by hand, another process)', async () => {
    const [, , , lonely] = crew;
    await db()
      .insertInto('access_marked_day')
      .values({ IdPersona: lonely, Fecha: D, IdCliente: 1, Version: 7 } as never)
      .onConflict((oc) => oc.columns(['IdPersona', 'Fecha']).doUpdateSet({ Version: 7 } as never))
      .execute();
    await db().deleteFrom('attendance_day').where('IdPersona', '=', lonely).execute();
    expect(await drainMarkedDays(db(), attendanceTables(t.registry), 1)).toBeGreaterThanOrEqual(1);
    expect(await dayRow(lonely, D)).toMatchObject({ Estado: 'INCOMPLETE' });
  });
});
