import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { chileanWeek } from '../../src/shared/special-conditions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { attendanceFixture, lima, mondayBefore } from '../support/attendance.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;

describe.each(DIALECTS)("a company's special condition pays its people's hours on %s", (dialect) => {
  let t: TestApp;
  const today = siteDate('PE');
  const D = mondayBefore(today);
  let f: Awaited<ReturnType<typeof attendanceFixture>>;
  let payroll: number;
  let sermipac: number;
  const conditions: Record<string, number> = {};
  const db = () => t.db.database.db;
  const setCondition = (procedure: string) =>
    db()
      .updateTable('attendance_attendance_config')
      .set({ IdCondicionEspecial: conditions[procedure] } as never)
      .where('IdCompania', '=', sermipac)
      .execute();
  /** The closed week's export: its header and the crew's lines by document. */
  const exported = async () => {
    const response = await t.app.inject({
      url: `/api/asistencia/planillas/${payroll}/cierres/${D}/excel`,
      headers: { authorization: `Bearer ${f.tokens.admin}`, 'accept-language': 'en' },
    });
    expect(response.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as never);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    const [header, ...lines] = rows as [string[], ...unknown[][]];
    const of = (person: number) => {
      const line = lines.find((l) => l[header.indexOf('Document')] === f.documents.get(person)) as unknown[];
      return Object.fromEntries(header.map((h, i) => [h, line[i]]));
    };
    return { header, of };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { gateDecisionBudgetMs: 60_000 });
    f = await attendanceFixture(t, { prefix: `SC${dialect[0].toUpperCase()}`, count: 2, today, from: D });
    for (const row of (await db()
      .selectFrom('attendance_special_condition')
      .select(['IdCondicionEspecial', 'ProcedimientoAlmacenado'])
      .execute()) as Json[])
      conditions[row.ProcedimientoAlmacenado] = Number(row.IdCondicionEspecial);
    sermipac = Number(
      (
        (await db()
          .selectFrom('administration_company')
          .select('IdCompania')
          .where('Alias', '=', 'SERMIPAC')
          .executeTakeFirstOrThrow()) as Json
      ).IdCompania,
    );
    const created = await f.as('admin', 'POST', '/api/rest/payroll', {
      Codigo: 'SCW',
      Descripcion: 'PLANILLA SEMANAL DE CONDICIONES',
      Periodicidad: 'S',
      DiaCierre: 7,
      Activo: 'S',
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    payroll = Number(created.body.IdPlanilla ?? created.body.id);
    await db()
      .updateTable('attendance_attendance_config')
      .set({ IdPlanilla: payroll, FechaInicio: addDays(D, -30), FechaFin: null } as never)
      .where('IdCompania', '=', sermipac)
      .execute();
    for (const person of f.crew) await f.assign(person, 'ADMINISTRATIVO LUNES A VIERNES');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('offers the computations the product has, and refuses any other', async () => {
    const body = {
      Descripcion: 'SOBRETIEMPO DE PRUEBA',
      LeyLaboral: 'D.S. 007-2002-TR ART. 10',
      Activo: 'S',
    };
    const unknown = await f.as('admin', 'POST', '/api/rest/special-condition', {
      ...body,
      ProcedimientoAlmacenado: 'SP_QUE_NO_EXISTE',
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors ?? {})).toEqual(['ProcedimientoAlmacenado']);
    const known = await f.as('admin', 'POST', '/api/rest/special-condition', {
      ...body,
      ProcedimientoAlmacenado: 'SP_ASI_SOBRETIEMPO',
    });
    expect(known.status, JSON.stringify(known.body)).toBe(201);
  });

  it('closes the week under the condition in force and exports the hours each condition pays', async () => {
    const [day, early] = f.crew;
    // One works Monday to Friday 08:00 to 19:00 (two hours of overtime a day, the schedule's most)
    // and Saturday morning, a rest day; the other comes in at 05:00 on Monday and leaves at 17:00.
    const week = Array.from({ length: 5 }, (_, i) => addDays(D, i));
    const sent = await f.batch([
      ...week.flatMap((d) => [
        { person: day, at: lima(d, '08:00'), direction: 'E' as const },
        { person: day, at: lima(d, '19:00'), direction: 'S' as const },
      ]),
      { person: day, at: lima(addDays(D, 5), '08:00'), direction: 'E' },
      { person: day, at: lima(addDays(D, 5), '12:00'), direction: 'S' },
      { person: early, at: lima(D, '05:00'), direction: 'E' },
      { person: early, at: lima(D, '17:00'), direction: 'S' },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await f.settled();
    expect(await f.dayRow(day, D)).toMatchObject({ MinutosTrabajados: 600, MinutosExtraDespues: 120 });
    expect(await f.dayRow(day, addDays(D, 5))).toMatchObject({
      Estado: 'REST_WORKED',
      MinutosTrabajados: 240,
    });
    expect(await f.dayRow(early, D)).toMatchObject({ MinutosTrabajados: 660 });

    // An inactive condition computes nothing: the week is not closed under it.
    await setCondition('SP_ASI_JORNADA_EXCEPCIONAL_CL');
    const refused = await f.as('admin', 'POST', `/api/asistencia/planillas/${payroll}/cerrar`, { fecha: D });
    expect([refused.status, refused.body.message]).toEqual([
      400,
      'The company SERVICIOS MINEROS DEL PACÍFICO S.A.C. has no payroll or special-condition configuration.',
    ]);
    await setCondition('SP_ASI_JORNADA_ATIPICA');
    const closed = await f.as('admin', 'POST', `/api/asistencia/planillas/${payroll}/cerrar`, { fecha: D });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    // Atypical shifts: 54 h worked in the week against its 48 h average, 6 h over, all at 25 %.
    let book = await exported();
    expect(book.header.slice(book.header.indexOf('Special condition'))).toEqual([
      'Special condition',
      'Overtime hours 25 %',
      'Overtime hours 35 %',
      'Pending from earlier periods',
    ]);
    expect(book.of(day)).toMatchObject({
      'Special condition': 'JORNADA ATÍPICA MINERA 14X7',
      'Overtime hours': 10,
      'Overtime hours 25 %': 6,
      'Overtime hours 35 %': 0,
    });
    expect(book.of(early)).toMatchObject({ 'Overtime hours 25 %': 0, 'Overtime hours 35 %': 0 });

    // Overtime: each day's two hours at 25 %.
    await setCondition('SP_ASI_SOBRETIEMPO');
    book = await exported();
    expect(book.of(day)).toMatchObject({
      'Special condition': 'TRABAJO EN SOBRETIEMPO',
      'Overtime hours 25 %': 10,
      'Overtime hours 35 %': 0,
    });

    // Night work: the hour before 06:00.
    await setCondition('SP_ASI_TRABAJO_NOCTURNO');
    book = await exported();
    expect(book.header).toContain('Night hours');
    expect(book.of(early)).toMatchObject({ 'Special condition': 'TRABAJO NOCTURNO', 'Night hours': 1 });
    expect(book.of(day)).toMatchObject({ 'Night hours': 0, 'Overtime hours 25 %': 10 });

    // A holiday or rest day worked: Saturday's four hours, paid double.
    await setCondition('SP_ASI_FERIADO_LABORADO');
    book = await exported();
    expect(book.of(day)).toMatchObject({
      'Special condition': 'TRABAJO EN FERIADO',
      'Holiday or rest-day hours': 4,
      'Overtime hours 25 %': 10,
    });

    // Chile's exceptional shifts, once active: what the week exceeds the legal week, at 50 %.
    await db()
      .updateTable('attendance_special_condition')
      .set({ Activo: 'S' } as never)
      .where('IdCondicionEspecial', '=', conditions.SP_ASI_JORNADA_EXCEPCIONAL_CL)
      .execute();
    await setCondition('SP_ASI_JORNADA_EXCEPCIONAL_CL');
    book = await exported();
    expect(book.header).toContain('Overtime hours 50 %');
    expect(book.header).not.toContain('Overtime hours 25 %');
    expect(book.of(day)['Overtime hours 50 %']).toBe(hours(54 * 60 - chileanWeek(addDays(D, 6)) * 60));
  });
});
