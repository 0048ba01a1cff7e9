import type { Database } from '../../src/server/db/connection.js';
import { addDays } from '../../src/shared/dates.js';
import { accreditCrew } from './lodging.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;
type Db = Database['db'];

/**
 * A bus of the transport contractor for a test: a copy of the demo's C4X-912 with its own plate
 * and seats, accredited in the division like it, holding a SOAT valid until `soatUntil`. Answers the
 * vehicle's id.
 */
export async function testVehicle(
  db: Db,
  options: { plate: string; seats: number; division: number; soatUntil: string; today: string },
): Promise<number> {
  const model = (await db
    .selectFrom('administration_vehicle')
    .selectAll()
    .where('Placa', '=', 'C4X-912')
    .executeTakeFirstOrThrow()) as Json;
  const { IdVehiculo: modelId, ...fields } = model;
  const made = (await db
    .insertInto('administration_vehicle')
    .values({ ...fields, Placa: options.plate, NumeroPasajeros: options.seats, Serie: null })
    .returning('IdVehiculo')
    .executeTakeFirstOrThrow()) as Json;
  const accreditation = (await db
    .selectFrom('accreditation_accreditation')
    .selectAll()
    .where('IdVehiculo', '=', modelId)
    .where('IdDivision', '=', options.division)
    .where('Estado', '=', 'A')
    .executeTakeFirstOrThrow()) as Json;
  const { IdAcreditacion: _a, ...rest } = accreditation;
  await db
    .insertInto('accreditation_accreditation')
    .values({
      ...rest,
      IdVehiculo: made.IdVehiculo,
      FechaInicio: addDays(options.today, -30),
      FechaFin: addDays(options.today, 300),
    })
    .execute();
  const soat = (await db
    .selectFrom('accreditation_accredited_requirement as a')
    .innerJoin('access_requirement as r', 'r.IdRequisito', 'a.IdRequisito')
    .selectAll('a')
    .where('a.IdVehiculo', '=', modelId)
    .where('r.Requisito', '=', 'SOAT')
    .executeTakeFirstOrThrow()) as Json;
  const { IdRequisitoAcreditado: _r, ...value } = soat;
  await db
    .insertInto('accreditation_accredited_requirement')
    .values({ ...value, IdVehiculo: made.IdVehiculo, FechaVencimiento: options.soatUntil })
    .execute();
  return Number(made.IdVehiculo);
}

/** Gives people a driving licence class of Peru (A-IIIC, A-IIB…). */
export async function giveLicence(db: Db, people: number[], category: string) {
  const licence = (await db
    .selectFrom('system_driving_licence')
    .select('IdLicenciaConducir')
    .where('IdPais', '=', 'PE')
    .where('Categoria', '=', category.toUpperCase())
    .executeTakeFirstOrThrow()) as Json;
  await db
    .updateTable('administration_person')
    .set({
      IdPaisLicenciaConducir: 'PE',
      IdLicenciaConducir: licence.IdLicenciaConducir,
      NumeroLicenciaConducir: 'Q12345678',
    })
    .where('IdPersona', 'in', people)
    .execute();
}

/** Gives each person an active badge numbered `<prefix><n>`; answers the numbers by person. */
export async function giveBadges(db: Db, people: number[], prefix: string): Promise<Map<number, string>> {
  const model = (await db
    .selectFrom('identification_credential')
    .selectAll()
    .where('TipoTitular', '=', 'P')
    .orderBy('IdCredencial')
    .executeTakeFirstOrThrow()) as Json;
  const { IdCredencial: _c, ...fields } = model;
  const numbers = new Map<number, string>();
  for (const [i, person] of people.entries()) {
    const Numero = `${prefix}${String(i).padStart(4, '0')}`;
    await db
      .insertInto('identification_credential')
      .values({ ...fields, IdPersona: person, IdVehiculo: null, Numero, Activo: 'S', FechaFin: '2099-12-31' })
      .execute();
    numbers.set(person, Numero);
  }
  return numbers;
}

/** Puts people on a roster (a cycle schedule type by its description) counted from an anchor. */
export async function putOnRoster(db: Db, people: number[], schedule: string, anchor: string) {
  const type = (await db
    .selectFrom('attendance_schedule_type')
    .selectAll()
    .where('Descripcion', '=', schedule)
    .executeTakeFirstOrThrow()) as Json;
  for (const person of people)
    await db
      .insertInto('attendance_schedule_assignment')
      .values({
        IdCliente: type.IdCliente,
        IdPersona: person,
        IdTipoHorario: type.IdTipoHorario,
        FechaInicio: addDays(anchor, -60),
        FechaAncla: anchor,
        Activo: 'S',
      })
      .execute();
  return Number(type.IdTipoHorario);
}

/** A division's id by its name. */
export async function divisionNamed(db: Db, name: string): Promise<number> {
  const row = (await db
    .selectFrom('system_division')
    .select('IdDivision')
    .where('Division', '=', name)
    .executeTakeFirstOrThrow()) as Json;
  return Number(row.IdDivision);
}

/** People's documents and names (surnames first), by id. */
export async function namesOf(
  db: Db,
  people: number[],
): Promise<Map<number, { Documento: string; Persona: string }>> {
  const rows = (await db
    .selectFrom('administration_person')
    .select(['IdPersona', 'Documento', 'Apellido', 'Nombre'])
    .where('IdPersona', 'in', people)
    .orderBy('Documento')
    .execute()) as Json[];
  return new Map(
    rows.map((r) => [Number(r.IdPersona), { Documento: r.Documento, Persona: `${r.Apellido} ${r.Nombre}` }]),
  );
}

/**
 * A driver of the transport contractor (an accredited worker with an A-IIIc licence) and a bus of
 * `seats` made by the coordinator's own call (`makeBus`, the REST create of transport-bus) on a test
 * vehicle of that plate. Answers the driver's person id and the bus's id.
 */
export async function driverAndBus(
  db: Db,
  options: { division: number; plate: string; seats: number; today: string; prefix: string },
  makeBus: (body: Record<string, unknown>) => Promise<{ IdBus: number }>,
): Promise<{ driver: number; bus: number }> {
  const [driver] = (
    await accreditCrew(db, {
      company: 'TRANSALTI',
      division: options.division,
      count: 1,
      prefix: options.prefix,
      today: options.today,
    })
  ).people;
  await giveLicence(db, [driver], 'A-IIIc');
  const vehicle = await testVehicle(db, { ...options, soatUntil: addDays(options.today, 300) });
  const licence = (await db
    .selectFrom('system_driving_licence')
    .select('IdLicenciaConducir')
    .where('IdPais', '=', 'PE')
    .where('Categoria', '=', 'A-IIIA')
    .executeTakeFirstOrThrow()) as Json;
  const bus = await makeBus({
    IdVehiculo: vehicle,
    Asientos: options.seats,
    IdLicenciaConducir: licence.IdLicenciaConducir,
    Activo: 'S',
  });
  return { driver, bus: Number(bus.IdBus) };
}
