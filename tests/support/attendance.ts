import { expect } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { call, signIn, type TestApp } from './app.js';
import { accreditCrew } from './lodging.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
export const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const TURNSTILE = 'TORNIQUETE GARITA PRINCIPAL 01';

/** The instant of a wall-clock time in Lima (UTC−5, no daylight saving) on a day, as a device sends it. */
export const lima = (day: string, hhmm: string) =>
  new Date(Date.parse(`${day}T${hhmm}:00-05:00`)).toISOString();

/** What a day's result is, without when it was computed. */
export const figures = (row: Json) => {
  const { CalculadoEn: _, IdPersona: __, IdCompania: ___, ...rest } = row;
  return rest;
};

/** A Monday about two weeks before `today` (a device's clock is checked against the real one). */
export function mondayBefore(today: string, days = 13) {
  let d = addDays(today, -days);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 1) d = addDays(d, 1);
  return d;
}

/**
 * What an attendance API test needs: the demo's sessions, the main gate's turnstile keyed as a
 * device with its entry and exit doors, the schedule types by name, and a crew of SERMIPAC
 * accredited in the south division, with calls to send their markings, read a day, wait until the
 * marked days are recomputed and assign a schedule from an anchor.
 */
export async function attendanceFixture(
  t: TestApp,
  options: { prefix: string; count: number; today: string; from: string },
) {
  const db = () => t.db.database.db;
  const tokens: Record<string, string> = {};
  tokens.admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
  tokens.requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
  tokens.authoriser = (await signIn(t.app, 'AUTORIZADOR', { division: SOUTH })).accessToken;
  const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens[who], payload });
  const equipment = (await db()
    .selectFrom('system_equipment')
    .select('IdEquipo')
    .where('Descripcion', '=', TURNSTILE)
    .executeTakeFirstOrThrow()) as Json;
  const issued = await as('admin', 'POST', `/api/acceso/equipo/${equipment.IdEquipo}/clave`);
  expect(issued.status).toBe(200);
  const key: string = issued.body.result.key;
  const point = (await db()
    .selectFrom('access_control_point_equipos')
    .select('IdPuntoControl')
    .where('Valor', '=', equipment.IdEquipo)
    .executeTakeFirstOrThrow()) as Json;
  const pointDoors = (await db()
    .selectFrom('access_door')
    .select(['IdPuerta', 'Sentido'])
    .where('IdPuntoControl', '=', point.IdPuntoControl)
    .execute()) as Json[];
  const doors = {
    in: pointDoors.find((d) => d.Sentido === 'E').IdPuerta as number,
    out: pointDoors.find((d) => d.Sentido === 'S').IdPuerta as number,
  };
  const schedules: Record<string, number> = {};
  for (const row of (await db()
    .selectFrom('attendance_schedule_type')
    .select(['IdTipoHorario', 'Descripcion'])
    .execute()) as Json[])
    schedules[row.Descripcion] = Number(row.IdTipoHorario);
  const crew = (
    await accreditCrew(db(), {
      company: 'SERMIPAC',
      division: 1,
      count: options.count,
      prefix: options.prefix,
      today: options.today,
    })
  ).people;
  const documents = new Map<number, string>();
  for (const person of crew) {
    const row = (await db()
      .selectFrom('administration_person')
      .select('Documento')
      .where('IdPersona', '=', person)
      .executeTakeFirstOrThrow()) as Json;
    documents.set(person, row.Documento);
  }
  let sequence = 0;
  const batch = (marks: Array<{ person: number; at: string; direction: 'E' | 'S' }>) =>
    call(t.app, {
      method: 'POST',
      url: '/api/acceso/marcaciones',
      headers: { authorization: `Device ${key}` },
      payload: {
        Marcas: marks.map((m) => ({
          IdMarca: `${options.prefix}-${++sequence}`,
          IdPuerta: m.direction === 'E' ? doors.in : doors.out,
          Funcion: m.direction,
          FechaHora: m.at,
          Documento: documents.get(m.person),
          // What the turnstile did with no network: they passed.
          Resultado: 'P',
        })),
      },
    });
  const dayRow = async (person: number, day: string) =>
    (await db()
      .selectFrom('attendance_day')
      .selectAll()
      .where('IdPersona', '=', person)
      .where('Fecha', '=', day)
      .executeTakeFirst()) as Json;
  /** Waits until the marked days are recomputed (the recomputation runs once the batch has committed). */
  const settled = () =>
    expect
      .poll(
        async () =>
          Number(
            (
              (await db()
                .selectFrom('access_marked_day')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirst()) as Json
            ).n,
          ),
        { timeout: 10_000 },
      )
      .toBe(0);
  const assign = (person: number, schedule: string, anchor = options.from) =>
    db()
      .insertInto('attendance_schedule_assignment')
      .values({
        IdCliente: 1,
        IdPersona: person,
        IdTipoHorario: schedules[schedule],
        FechaInicio: addDays(options.from, -30),
        FechaAncla: anchor,
        Activo: 'S',
      } as never)
      .execute();
  return { db, tokens, as, key, doors, schedules, crew, documents, batch, dayRow, settled, assign };
}
