import type { Database } from '../../src/server/db/connection.js';
import { addDays } from '../../src/shared/dates.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;

/**
 * Makes a crew of `count` accredited workers of a company in a division, copies of one of its
 * accredited workers (same contract and request) with new documents: active from thirty days ago
 * for two hundred days. Answers their person ids, the contract and the accreditations' ids.
 */
export async function accreditCrew(
  db: Database['db'],
  options: {
    company: string;
    division: number;
    count: number;
    prefix: string;
    today: string;
    sex?: 'M' | 'F';
  },
): Promise<{ people: number[]; accreditations: number[]; contract: number }> {
  const model = (await db
    .selectFrom('accreditation_accreditation as a')
    .innerJoin('administration_company as c', 'c.IdCompania', 'a.IdCompania')
    .selectAll('a')
    .where('c.Alias', '=', options.company)
    .where('a.IdDivision', '=', options.division)
    .where('a.IdEntidad', '=', 'T')
    .orderBy('a.IdAcreditacion')
    .executeTakeFirstOrThrow()) as Json;
  const person = (await db
    .selectFrom('administration_person')
    .selectAll()
    .where('IdPersona', '=', model.IdPersona)
    .executeTakeFirstOrThrow()) as Json;
  const people: number[] = [];
  const accreditations: number[] = [];
  for (let i = 0; i < options.count; i++) {
    const { IdPersona: _p, ...fields } = person;
    const made = (await db
      .insertInto('administration_person')
      .values({
        ...fields,
        Documento: `${options.prefix}${String(i).padStart(8 - options.prefix.length, '0')}`,
        Apellido: `CUADRILLA ${options.prefix}`,
        Nombre: `TRABAJADOR ${String(i + 1).padStart(2, '0')}`,
        Sexo: options.sex ?? 'M',
        // No guard of the model's: a guard's cycle would move them by its own dates (transport, attendance).
        IdGuardia: null,
        IdRegimen: null,
      })
      .returning('IdPersona')
      .executeTakeFirstOrThrow()) as Json;
    const { IdAcreditacion: _a, ...rest } = model;
    const accreditation = (await db
      .insertInto('accreditation_accreditation')
      .values({
        ...rest,
        IdPersona: made.IdPersona,
        Estado: 'A',
        FechaInicio: addDays(options.today, -30),
        FechaFin: addDays(options.today, 200),
      })
      .returning('IdAcreditacion')
      .executeTakeFirstOrThrow()) as Json;
    people.push(Number(made.IdPersona));
    accreditations.push(Number(accreditation.IdAcreditacion));
  }
  return { people, accreditations, contract: Number(model.IdContrato) };
}
