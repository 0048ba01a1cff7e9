import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { upload } from '../support/accreditation.js';
import { anotherClientAdmin, call, menuIdOf, startTestApp, type TestApp } from '../support/app.js';
import { attendanceFixture, lima, mondayBefore } from '../support/attendance.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** The first sheet of a workbook as rows of values (row 1 the headers). */
async function sheetOf(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/** A justification file as the template has it: keys on row 1, headers on row 2, rows from 3. */
async function justificationFile(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('justificaciones');
  sheet.addRow(['Documento', 'Fecha', 'Tipo', 'Horas', 'Observacion']);
  sheet.addRow(['Documento', 'Fecha', 'Tipo', 'Horas', 'Observación']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(DIALECTS)('attendance justifications, period and closing on %s', (dialect) => {
  let t: TestApp;
  const today = siteDate('PE');
  // A Monday of the week before last: a weekly payroll's period that is over.
  const D = mondayBefore(today);
  let f: Awaited<ReturnType<typeof attendanceFixture>>;
  const justifications: Record<string, number> = {};
  const companies: Record<string, number> = {};
  let weekly: number;
  const db = () => t.db.database.db;
  const count = async () =>
    Number(
      (
        (await db()
          .selectFrom('attendance_person_justification')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as Json
      ).n,
    );
  const justify = (body: object) => f.as('admin', 'POST', '/api/rest/person-justification', body);
  const bytesOf = async (url: string, token = f.tokens.admin) => {
    const response = await t.app.inject({
      url,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    });
    return { status: response.statusCode, body: response.rawPayload, json: () => response.json() };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { gateDecisionBudgetMs: 60_000 });
    f = await attendanceFixture(t, { prefix: `AP${dialect[0].toUpperCase()}`, count: 4, today, from: D });
    for (const row of (await db()
      .selectFrom('attendance_justification')
      .select(['IdJustificacion', 'CodigoReferencia'])
      .execute()) as Json[])
      justifications[row.CodigoReferencia] = Number(row.IdJustificacion);
    for (const row of (await db()
      .selectFrom('administration_company')
      .select(['IdCompania', 'Alias'])
      .execute()) as Json[])
      companies[row.Alias] = Number(row.IdCompania);
    // SERMIPAC's attendance is closed in a weekly payroll (Monday to Sunday) for these tests.
    const payroll = await f.as('admin', 'POST', '/api/rest/payroll', {
      Codigo: 'SEM',
      Descripcion: 'PLANILLA SEMANAL DE PRUEBA',
      Periodicidad: 'S',
      DiaCierre: 7,
      Activo: 'S',
    });
    expect(payroll.status, JSON.stringify(payroll.body)).toBeLessThan(300);
    weekly = Number(payroll.body.IdPlanilla ?? payroll.body.id);
    await db()
      .updateTable('attendance_attendance_config')
      .set({ IdPlanilla: weekly } as never)
      .where('IdCompania', '=', companies.SERMIPAC)
      .execute();
    for (const person of f.crew) await f.assign(person, 'ADMINISTRATIVO LUNES A VIERNES');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a supervisor justifies a late entry and an absence, within the justification’s rules', async () => {
    const [late] = f.crew;
    const sent = await f.batch([
      { person: late, at: lima(D, '08:40'), direction: 'E' },
      { person: late, at: lima(D, '17:00'), direction: 'S' },
    ]);
    expect(sent.status).toBe(200);
    await f.settled();
    expect(await f.dayRow(late, D)).toMatchObject({ Estado: 'WORKED', MinutosTardanza: 40 });

    const ok = await justify({
      IdPersona: late,
      IdJustificacion: justifications.CME,
      Fecha: D,
      Tipo: 'T',
      Observacion: 'cita en essalud',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ Origen: 'M', Observacion: 'CITA EN ESSALUD' });
    await f.settled();
    expect(await f.dayRow(late, D)).toMatchObject({
      MinutosTardanza: 0,
      MinutosJustificados: 40,
      MinutosJustificadosPagados: 40,
    });

    // An absence the next day: a medical rest (paid) covers the planned hours.
    const next = addDays(D, 1);
    expect(
      (await f.as('admin', 'POST', '/api/asistencia/calcular', { desde: next, hasta: next, IdPersona: late }))
        .status,
    ).toBe(200);
    expect((await f.dayRow(late, next)).Estado).toBe('ABSENT');
    const rest = await justify({
      IdPersona: late,
      IdJustificacion: justifications.DM,
      Fecha: next,
      Tipo: 'F',
      Observacion: 'DESCANSO MÉDICO 1 DÍA',
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    await f.settled();
    expect(await f.dayRow(late, next)).toMatchObject({ Estado: 'JUSTIFIED', MinutosJustificados: 480 });

    // Refused with its message, nothing written.
    const before = await count();
    const refusals: Array<[object, string]> = [
      [
        { IdJustificacion: justifications.CME, Fecha: addDays(D, 2), Tipo: 'T', Observacion: 'OTRA' },
        'The justification has already been used 1 time(s) that week for this person.',
      ],
      [
        { IdJustificacion: justifications.DM, Fecha: addDays(D, 2), Tipo: 'F' },
        'This justification requires an observation.',
      ],
      [
        { IdJustificacion: justifications.PP, Fecha: addDays(D, 3), Tipo: 'H', Horas: 5, Observacion: 'X' },
        'The justification covers at most 4 hours.',
      ],
      [
        { IdJustificacion: justifications.PP, Fecha: addDays(D, 3), Tipo: 'H', Observacion: 'X' },
        'Enter the hours being justified.',
      ],
      [
        { IdJustificacion: justifications.OM, Fecha: addDays(today, 2), Tipo: 'F', Observacion: 'X' },
        'This justification does not apply to future days.',
      ],
      [
        { IdJustificacion: justifications.LS, Fecha: addDays(D, 3), Tipo: 'F', Observacion: 'X' },
        'The justification is not active.',
      ],
      [
        { IdJustificacion: justifications.DM, Fecha: next, Tipo: 'F', Observacion: 'OTRO' },
        'The justification has already been used 1 time(s) that day for this person.',
      ],
    ];
    for (const [body, message] of refusals) {
      const refused = await justify({ IdPersona: late, ...body });
      expect([refused.status, refused.body.message], JSON.stringify(body)).toEqual([400, message]);
    }
    expect(await count()).toBe(before);
  });

  it('shows a period as a grid with totals, filtered, and exports it; a company without configuration is told so', async () => {
    const grid = await f.as(
      'admin',
      'GET',
      `/api/asistencia/periodo?desde=${D}&hasta=${addDays(D, 1)}&IdCompania=${companies.SERMIPAC}`,
    );
    expect(grid.status, JSON.stringify(grid.body)).toBe(200);
    const [late] = f.crew;
    const row = grid.body.result.personas.find((p: Json) => p.IdPersona === late);
    expect(row.dias.map((d: Json) => d.Estado)).toEqual(['WORKED', 'JUSTIFIED']);
    expect(row.totales).toMatchObject({ diasTrabajados: 1, justificadas: 1, faltas: 0, minutosTardanza: 0 });
    const justified = await f.as(
      'admin',
      'GET',
      `/api/asistencia/periodo?desde=${D}&hasta=${addDays(D, 1)}&Estado=JUSTIFIED&IdDivision=1`,
    );
    expect(justified.body.result.personas.map((p: Json) => p.IdPersona)).toEqual([late]);

    const excel = await bytesOf(
      `/api/asistencia/periodo/excel?desde=${D}&hasta=${addDays(D, 1)}&IdCompania=${companies.SERMIPAC}`,
    );
    expect(excel.status).toBe(200);
    const rows = await sheetOf(excel.body);
    expect(rows[0].slice(0, 6)).toEqual([
      'Document',
      'Person',
      'Company',
      'Payroll code',
      D.slice(8),
      addDays(D, 1).slice(8),
    ]);
    const line = rows.find((r) => r[1] === row.Persona) as unknown[];
    expect(line.slice(4, 8)).toEqual([
      'W',
      'J',
      1,
      Math.round((row.totales.minutosTrabajados / 60) * 100) / 100,
    ]);
    expect(rows.length - 1).toBe(grid.body.result.total);

    // ALCAMIN's configuration names no special condition.
    const lacking = await f.as(
      'admin',
      'GET',
      `/api/asistencia/periodo?desde=${D}&hasta=${D}&IdCompania=${companies.ALCAMIN}`,
    );
    expect([lacking.status, lacking.body.message]).toEqual([
      400,
      'The company has no payroll or special-condition configuration.',
    ]);
    // No period screen in their menus.
    for (const who of ['requester', 'authoriser'])
      expect((await f.as(who, 'GET', `/api/asistencia/periodo?desde=${D}&hasta=${D}`)).status).toBe(403);
  });

  it('keeps each client’s people to itself: another client’s division or company names nothing', async () => {
    const other = await anotherClientAdmin(t, [await menuIdOf(t, '/asistencia/periodo')]);
    const theirs = (await db()
      .selectFrom(t.registry.require('division').table)
      .select(['IdDivision', 'IdCliente'])
      .where('Division', '=', 'FAENA ESCONDIDA SUR')
      .executeTakeFirstOrThrow()) as Json;
    // A company of the other client's (a copy of SERMIPAC's record under it).
    const { IdCompania: _id, ...sermipac } = (await db()
      .selectFrom('administration_company')
      .selectAll()
      .where('IdCompania', '=', companies.SERMIPAC)
      .executeTakeFirstOrThrow()) as Json;
    const theirCompany = {
      id: Number(
        (
          (await db()
            .insertInto('administration_company')
            .values({ ...sermipac, IdCliente: theirs.IdCliente, Alias: 'CNORTE', Documento: '20999999991' })
            .returning('IdCompania')
            .executeTakeFirstOrThrow()) as Json
        ).IdCompania,
      ),
    };
    const period = `desde=${D}&hasta=${addDays(D, 1)}`;
    // This client's supervisor naming the other client's division or company: not found, nobody shown.
    for (const filter of [`IdDivision=${theirs.IdDivision}`, `IdCompania=${theirCompany.id}`]) {
      const asked = await f.as('admin', 'GET', `/api/asistencia/periodo?${period}&${filter}`);
      expect(asked.status, filter).toBe(404);
      expect(asked.body.personas).toBeUndefined();
    }
    // The other client's supervisor finds none of this client's people, with or without this client's ids.
    const mine = await call(t.app, { method: 'GET', url: `/api/asistencia/periodo?${period}`, token: other });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.result).toMatchObject({ total: 0, personas: [] });
    for (const filter of ['IdDivision=1', `IdCompania=${companies.SERMIPAC}`]) {
      const asked = await call(t.app, {
        method: 'GET',
        url: `/api/asistencia/periodo?${period}&${filter}`,
        token: other,
      });
      expect(asked.status, filter).toBe(404);
    }
  });

  it('closes a payroll period once: its days frozen, exported with the payroll codes, later markings flagged', async () => {
    const [, worker] = f.crew;
    await f
      .db()
      .updateTable('administration_person')
      .set({ CodigoPlanilla: 'P-0042' } as never)
      .where('IdPersona', '=', worker)
      .execute();
    expect(
      (
        await f.batch([
          { person: worker, at: lima(D, '07:50'), direction: 'E' },
          { person: worker, at: lima(D, '18:00'), direction: 'S' },
        ])
      ).status,
    ).toBe(200);
    await f.settled();
    const notOver = await f.as('admin', 'POST', `/api/asistencia/planillas/${weekly}/cerrar`, {
      fecha: today,
    });
    expect(notOver.status).toBe(400);
    expect(notOver.body.message).toMatch(
      /^The period ends on \d{4}-\d{2}-\d{2}: it can be closed from the next day\.$/,
    );

    const closed = await f.as('admin', 'POST', `/api/asistencia/planillas/${weekly}/cerrar`, { fecha: D });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.result).toMatchObject({ IdPlanilla: weekly, Desde: D, Hasta: addDays(D, 6) });
    expect(closed.body.result.Personas).toBeGreaterThanOrEqual(f.crew.length);
    const frozen = await f.dayRow(worker, D);
    expect(frozen).toMatchObject({ Cerrado: 'S', Pendiente: 'N', IdPlanilla: weekly, Estado: 'WORKED' });
    // The week's working days without markings were computed as absences and frozen too.
    expect(await f.dayRow(worker, addDays(D, 2))).toMatchObject({ Estado: 'ABSENT', Cerrado: 'S' });

    const again = await f.as('admin', 'POST', `/api/asistencia/planillas/${weekly}/cerrar`, {
      fecha: addDays(D, 3),
    });
    expect([again.status, again.body.message]).toEqual([
      409,
      `The period from ${D} to ${addDays(D, 6)} is already closed.`,
    ]);

    // A later marking on a closed day: kept, the day's figures as paid, flagged for the next period.
    expect((await f.batch([{ person: worker, at: lima(D, '19:30'), direction: 'E' }])).status).toBe(200);
    await expect.poll(async () => (await f.dayRow(worker, D)).Pendiente, { timeout: 10_000 }).toBe('S');
    expect((await f.dayRow(worker, D)).MinutosTrabajados).toBe(frozen.MinutosTrabajados);
    // Nor may a closed day be justified.
    const refused = await justify({
      IdPersona: worker,
      IdJustificacion: justifications.DM,
      Fecha: addDays(D, 2),
      Tipo: 'F',
      Observacion: 'TARDE',
    });
    expect([refused.status, refused.body.message]).toEqual([
      400,
      'The day belongs to a closed payroll period: it cannot be justified.',
    ]);

    // The export for payroll: the payroll's code, the person's, the frozen figures, the codes.
    const excel = await bytesOf(`/api/asistencia/planillas/${weekly}/cierres/${D}/excel`);
    expect(excel.status).toBe(200);
    const rows = await sheetOf(excel.body);
    expect(rows[0]).toEqual([
      'Payroll',
      'Payroll code',
      'Document',
      'Person',
      'Company',
      'Days worked',
      'Hours worked',
      'Overtime hours',
      'Late minutes',
      'Absences',
      'Justified days',
      'Paid justified hours',
      'CME',
      'DM',
      'Special condition',
      'Overtime hours 25 %',
      'Overtime hours 35 %',
      'Pending from earlier periods',
    ]);
    const line = rows.find((r) => r[3] && r[1] === 'P-0042') as unknown[];
    const week = (await f
      .db()
      .selectFrom('attendance_day')
      .selectAll()
      .where('IdPersona', '=', worker)
      .where('Fecha', '>=', D)
      .where('Fecha', '<=', addDays(D, 6))
      .execute()) as Json[];
    const minutes = week.reduce((s, d) => s + d.MinutosTrabajados, 0);
    expect(line[0]).toBe('SEM');
    // SERMIPAC works under the demo's atypical 14x7 shifts: one day's hours are nowhere near a 48 h week.
    expect(line.slice(14, 17)).toEqual(['JORNADA ATÍPICA MINERA 14X7', 0, 0]);
    expect(line[5]).toBe(1);
    expect(line[6]).toBe(Math.round((minutes / 60) * 100) / 100);
    expect(line[9]).toBe(week.filter((d) => d.Estado === 'ABSENT').length);
    const [late] = f.crew;
    const lateLine = rows.find((r) => r[2] === f.documents.get(late)) as unknown[];
    expect(lateLine.slice(12, 14)).toEqual([1, 1]);

    // A payroll with a company lacking its special condition is not closed.
    const payrolls = await f.as('admin', 'GET', '/api/asistencia/planillas');
    const emp = payrolls.body.result.planillas.find((p: Json) => p.Codigo === 'EMP');
    const lacking = await f.as('admin', 'POST', `/api/asistencia/planillas/${emp.IdPlanilla}/cerrar`, {
      fecha: emp.anterior.desde,
    });
    expect(lacking.status).toBe(400);
    expect(lacking.body.message).toMatch(
      /^The company .+ has no payroll or special-condition configuration\.$/,
    );
    for (const who of ['requester', 'authoriser'])
      expect(
        (await f.as(who, 'POST', `/api/asistencia/planillas/${weekly}/cerrar`, { fecha: D })).status,
      ).toBe(403);
  });

  it('imports a justification file for a company, all rows or none', async () => {
    const [, , first, second] = f.crew;
    // The day after the closed week (D to D + 6): never in it, never after today, whatever today's weekday.
    const day = addDays(D, 7);
    const token = f.tokens.admin;
    const url = '/api/asistencia/justificaciones/importar';
    const good = await justificationFile([
      [f.documents.get(first), day, 'F', null, 'VACACIONES PROGRAMADAS'],
      [f.documents.get(second), `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`, 'F', null, null],
    ]);
    const missing = await upload(
      t.app,
      token,
      url,
      { IdCompania: companies.SERMIPAC },
      { name: 'j.xlsx', bytes: good },
    );
    expect([missing.status, missing.body.message]).toEqual([
      400,
      'Justification import requires company and justification.',
    ]);
    const text = await upload(
      t.app,
      token,
      url,
      { IdCompania: companies.SERMIPAC, IdJustificacion: justifications.VAC },
      { name: 'j.csv', bytes: Buffer.from('Documento,Fecha\n1,2026-01-01\n') },
    );
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/xlsx/i);
    const before = await count();
    const bad = await upload(
      t.app,
      token,
      url,
      { IdCompania: companies.SERMIPAC, IdJustificacion: justifications.VAC },
      {
        name: 'j.xlsx',
        bytes: await justificationFile([
          [f.documents.get(first), day, 'F', null, null],
          ['00000000', day, 'F', null, null],
          [f.documents.get(second), 'ayer', 'X', null, null],
        ]),
      },
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.message, JSON.stringify(bad.body)).toBe(
      '3 problem(s) in the file: nothing was imported.',
    );
    expect(Object.keys(bad.body.errors).sort()).toEqual(['4.Documento', '5.Fecha', '5.Tipo']);
    expect(await count()).toBe(before);

    const done = await upload(
      t.app,
      token,
      url,
      { IdCompania: companies.SERMIPAC, IdJustificacion: justifications.VAC },
      { name: 'j.xlsx', bytes: good },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.result).toEqual({ importadas: 2 });
    const imported = (await f
      .db()
      .selectFrom('attendance_person_justification')
      .selectAll()
      .where('IdPersona', 'in', [first, second])
      .execute()) as Json[];
    expect(imported.map((r) => [r.Origen, String(r.Fecha).slice(0, 10), r.Tipo])).toEqual([
      ['I', day, 'F'],
      ['I', day, 'F'],
    ]);
    // The requester has no attendance screen.
    const refused = await upload(
      t.app,
      f.tokens.requester,
      url,
      { IdCompania: companies.SERMIPAC, IdJustificacion: justifications.VAC },
      { name: 'j.xlsx', bytes: good },
    );
    expect(refused.status).toBe(403);
  });
});
