import type { Database } from '../../src/server/db/connection.js';
import { addDays } from '../../src/shared/dates.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;

/**
 * Makes a demo worker (or, given `{ vehicle }`, a demo vehicle) of the south division (client 1,
 * division 1) one the gate lets through `doors` round the clock: its accreditation active from ten
 * days ago for sixty days, its dated requirements in force, no restriction, and an access profile
 * whose group opens those doors at every hour (profile "PRUEBA PERFIL", "PRUEBA PERFIL VEHICULAR"
 * for a vehicle). Answers the
 * accreditation's id.
 */
export async function admitRoundTheClock(
  db: Database['db'],
  holder: number | { vehicle: number },
  today: string,
  doors: number[],
): Promise<number> {
  const vehicle = typeof holder === 'number' ? undefined : holder.vehicle;
  const column = vehicle === undefined ? 'IdPersona' : 'IdVehiculo';
  const id = vehicle ?? (holder as number);
  const suffix = vehicle === undefined ? '' : ' VEHICULAR';
  const accreditation = (await db
    .selectFrom('accreditation_accreditation')
    .select('IdAcreditacion')
    .where('IdDivision', '=', 1)
    .where(column, '=', id)
    .orderBy('IdAcreditacion')
    .executeTakeFirstOrThrow()) as Json;
  await db
    .updateTable('accreditation_accreditation')
    .set({ Estado: 'A', FechaInicio: addDays(today, -10), FechaFin: addDays(today, 60) })
    .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
    .execute();
  await db
    .updateTable('accreditation_accredited_requirement')
    .set({ FechaVencimiento: addDays(today, 100) })
    .where(column, '=', id)
    .where('FechaVencimiento', 'is not', null)
    .execute();
  if (vehicle === undefined) {
    await db
      .updateTable('administration_person')
      .set({ Condicion: 'T', Inactivo: 'N' })
      .where('IdPersona', '=', id)
      .execute();
    await db.updateTable('access_restriction').set({ Activo: 'N' }).where('IdPersona', '=', id).execute();
  } else
    await db
      .updateTable('administration_vehicle')
      .set({ Estado: 'A' })
      .where('IdVehiculo', '=', id)
      .execute();
  const schedule = (await db
    .insertInto('access_schedule')
    .values({ IdCliente: 1, Descripcion: `PRUEBA 24 HORAS${suffix}`, Activo: 'S' })
    .returning('IdHorario')
    .executeTakeFirstOrThrow()) as Json;
  for (let day = 1; day <= 7; day++)
    await db
      .insertInto('access_schedule_interval')
      .values({ IdHorario: schedule.IdHorario, Dia: day, HoraInicio: '00:00', HoraFin: '23:59', Activo: 'S' })
      .execute();
  const group = (await db
    .insertInto('access_access_group')
    .values({
      IdCliente: 1,
      IdDivision: 1,
      Descripcion: `PRUEBA GARITA${suffix}`,
      IdHorario: schedule.IdHorario,
      Activo: 'S',
    })
    .returning('IdGrupoAcceso')
    .executeTakeFirstOrThrow()) as Json;
  for (const door of doors)
    await db
      .insertInto('access_access_group_puertas')
      .values({ IdGrupoAcceso: group.IdGrupoAcceso, Valor: door })
      .execute();
  const profile = (await db
    .insertInto('access_access_profile')
    .values({
      IdCliente: 1,
      IdDivision: 1,
      Descripcion: `PRUEBA PERFIL${suffix}`,
      IdEntidad: vehicle === undefined ? 'T' : 'V',
      ValidarRequisitos: 'S',
      Activo: 'S',
    })
    .returning('IdPerfilAcceso')
    .executeTakeFirstOrThrow()) as Json;
  await db
    .insertInto('access_access_profile_grupos')
    .values({ IdPerfilAcceso: profile.IdPerfilAcceso, Valor: group.IdGrupoAcceso })
    .execute();
  await db
    .insertInto(vehicle === undefined ? 'access_person_access' : 'access_vehicle_access')
    .values({
      IdCliente: 1,
      IdDivision: 1,
      [column]: id,
      IdPerfilAcceso: profile.IdPerfilAcceso,
      FechaInicio: addDays(today, -10),
      FechaFin: addDays(today, 60),
      Temporal: 'N',
      Activo: 'S',
    })
    .execute();
  return Number(accreditation.IdAcreditacion);
}
