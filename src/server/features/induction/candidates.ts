import type { Candidate as BookableWorker } from '../../../shared/induction.js';
import type { Db } from '../../db/connection.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, inChunks, type Row, text } from './tables.js';

/** A worker who may be booked, with the e-mail the online test's link may go to. */
export interface Candidate extends BookableWorker {
  Correo: string | null;
}

/** Where a crew comes from: a contract, a bulk request, or a name or document searched. */
export interface CrewQuery {
  IdContrato?: number;
  IdCargaMasiva?: number;
  buscar?: string;
}

const LIMIT = 500;

/**
 * The grounds of people in the division: an accreditation granted and in force (state A) or a
 * request open for them (pending or observed), of the requester's company when a requester asks.
 * `narrow` limits the rows (to some people, a contract, a bulk upload's requests).
 */
function grounds(db: Db, t: InductionTables, office: InductionOffice, narrow: (q: Q) => Q) {
  const accredited = narrow(
    db
      .selectFrom(`${t.accreditation} as g`)
      .select(['g.IdPersona', 'g.IdCompania', 'g.IdContrato', 'g.IdSolicitud'])
      .where('g.IdCliente', '=', office.clientId)
      .where('g.IdDivision', '=', office.divisionId)
      .where('g.Estado', '=', 'A')
      .where('g.IdPersona', 'is not', null),
  );
  const requested = narrow(
    db
      .selectFrom(`${t.request} as g`)
      .select(['g.IdPersona', 'g.IdCompania', 'g.IdContrato', 'g.IdSolicitud'])
      .where('g.IdCliente', '=', office.clientId)
      .where('g.IdDivision', '=', office.divisionId)
      .where('g.EstadoAprobacion', 'in', ['P', 'O'])
      .where('g.IdPersona', 'is not', null),
  );
  const mine = (q: Q) =>
    office.companyId === undefined ? q : q.where('g.IdCompania', '=', office.companyId);
  return mine(accredited).unionAll(mine(requested));
}

// biome-ignore lint/suspicious/noExplicitAny: the tables come from the schemas at run time
type Q = any;

/** The people behind grounds, named, with their company, one row per person (the first ground wins). */
async function named(db: Db, t: InductionTables, rows: Row[]): Promise<Candidate[]> {
  const company = new Map<number, number>();
  for (const r of rows)
    if (!company.has(Number(r.IdPersona))) company.set(Number(r.IdPersona), Number(r.IdCompania));
  const ids = [...company.keys()];
  const people = await inChunks(ids, (chunk) =>
    db
      .selectFrom(`${t.person} as p`)
      .select(['p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre', 'p.Email'])
      .where('p.IdPersona', 'in', chunk)
      .execute(),
  );
  const companies = await inChunks([...new Set(company.values())], (chunk) =>
    db.selectFrom(t.company).select(['IdCompania', 'Alias']).where('IdCompania', 'in', chunk).execute(),
  );
  const alias = new Map(companies.map((c: Row) => [Number(c.IdCompania), text(c.Alias)]));
  return people
    .map((p: Row) => ({
      IdPersona: Number(p.IdPersona),
      Documento: text(p.Documento),
      Persona: `${text(p.Apellido)} ${text(p.Nombre)}`.trim(),
      IdCompania: company.get(Number(p.IdPersona)) as number,
      Compania: alias.get(company.get(Number(p.IdPersona)) as number) ?? '',
      Correo: (p.Email as string | null) ?? null,
    }))
    .sort((a, b) => a.Persona.localeCompare(b.Persona));
}

/** Who of these people may be booked by the office, by id (the others are absent). */
export async function eligible(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  ids: readonly number[],
): Promise<Map<number, Candidate>> {
  const rows = await inChunks([...new Set(ids)], (chunk) =>
    grounds(db, t, office, (q) => q.where('g.IdPersona', 'in', chunk)).execute(),
  );
  return new Map((await named(db, t, rows as Row[])).map((c) => [c.IdPersona, c]));
}

/** The crew the office may book: a contract's people, a bulk request's, or those a search finds (500 at most). */
export async function crew(db: Db, t: InductionTables, office: InductionOffice, query: CrewQuery) {
  const narrow = (q: Q): Q => {
    if (query.IdContrato !== undefined) q = q.where('g.IdContrato', '=', query.IdContrato);
    if (query.IdCargaMasiva !== undefined)
      q = q.where(
        'g.IdSolicitud',
        'in',
        db
          .selectFrom(t.bulkRow)
          .select('IdSolicitud')
          .where('IdCargaMasiva', '=', query.IdCargaMasiva)
          .where('IdSolicitud', 'is not', null),
      );
    const words = query.buscar?.trim().toUpperCase();
    if (words)
      q = q.where(
        'g.IdPersona',
        'in',
        db
          .selectFrom(t.person)
          .select('IdPersona')
          .where((eb: Q) =>
            eb.or([
              eb('Documento', 'like', `%${words}%`),
              eb('Apellido', 'like', `%${words}%`),
              eb('Nombre', 'like', `%${words}%`),
            ]),
          ),
      );
    return q;
  };
  const rows = (await grounds(db, t, office, narrow).execute()) as Row[];
  return (await named(db, t, rows)).slice(0, LIMIT);
}
