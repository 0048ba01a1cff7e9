import { addDays } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { attendanceTables, computePeriod, loadClientSetup, planReader, trackedPeople } from './compute.js';
import { ROSTER_DAYS } from './demo-markings.js';
import { ATTENDANCE_TABLES } from './tables.js';

type Row = Record<string, unknown>;

/** The planned days of the people whose attendance is kept: the demo's markings follow them. */
export async function demoPlans(trx: Db, registry: Registry, clientId: number, now: number) {
  const tables = attendanceTables(registry);
  const setup = await loadClientSetup(trx, tables, clientId, now);
  const people = await trackedPeople(trx, tables, clientId, addDays(setup.today, -ROSTER_DAYS), setup.today);
  return planReader(trx, tables, setup, people);
}

/**
 * A month of attendance on the first start: the days of everyone tracked computed from the demo's
 * markings, then the first absence justified by a medical rest and a late entry by a medical
 * appointment (the other absences stay unjustified), those days computed again.
 */
export async function seedDemoAttendance(
  trx: Db,
  registry: Registry,
  clientId: number,
  now: number,
): Promise<Record<string, number>> {
  const tables = attendanceTables(registry);
  const setup = await loadClientSetup(trx, tables, clientId, now);
  const from = addDays(setup.today, -ROSTER_DAYS);
  const yesterday = addDays(setup.today, -1);
  await computePeriod(trx, tables, setup, from, yesterday);
  const codes = new Map(
    (
      (await trx
        .selectFrom(tables.justification)
        .select(['IdJustificacion', 'CodigoReferencia'])
        .where('IdCliente', '=', clientId)
        .execute()) as Row[]
    ).map((j) => [String(j.CodigoReferencia), Number(j.IdJustificacion)]),
  );
  const first = (where: 'ABSENT' | 'LATE', otherThan?: unknown) =>
    trx
      .selectFrom(ATTENDANCE_TABLES.day)
      .select(['IdPersona', 'Fecha', 'IdCompania'])
      .where('IdCliente', '=', clientId)
      .$if(where === 'ABSENT', (q) => q.where('Estado', '=', 'ABSENT'))
      .$if(where === 'LATE', (q) => q.where('MinutosTardanza', '>', 0))
      .$if(otherThan != null, (q) => q.where('IdCompania', '<>', otherThan as number))
      .orderBy('IdPersona')
      .orderBy('Fecha')
      .executeTakeFirst() as Promise<Row | undefined>;
  const absence = await first('ABSENT');
  // The late entry of another company's worker: each company sees its own justifications only.
  const late = await first('LATE', absence?.IdCompania);
  const justified: Row[] = [];
  const stamp = {
    IdCliente: clientId,
    Origen: 'M',
    IdUsuarioCreacion: 'ADMIN',
    FechaCreacion: new Date(now).toISOString(),
  };
  if (absence && codes.has('DM'))
    justified.push({
      ...stamp,
      IdPersona: absence.IdPersona,
      IdJustificacion: codes.get('DM'),
      Fecha: String(absence.Fecha).slice(0, 10),
      Tipo: 'F',
      Observacion: 'DESCANSO MÉDICO POR UN DÍA, CERTIFICADO DE ESSALUD',
    });
  if (late && codes.has('CME'))
    justified.push({
      ...stamp,
      IdPersona: late.IdPersona,
      IdJustificacion: codes.get('CME'),
      Fecha: String(late.Fecha).slice(0, 10),
      Tipo: 'T',
      Observacion: 'CITA MÉDICA EN ESSALUD A PRIMERA HORA',
    });
  if (!justified.length) return { 'person-justification': 0 };
  await trx.insertInto(tables.personJustification).values(justified).execute();
  for (const j of justified)
    await computePeriod(trx, tables, setup, String(j.Fecha), String(j.Fecha), [Number(j.IdPersona)]);
  const days = await trx
    .selectFrom(ATTENDANCE_TABLES.day)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('IdCliente', '=', clientId)
    .executeTakeFirst();
  return { 'person-justification': justified.length, attendance_day: Number(days?.n ?? 0) };
}
