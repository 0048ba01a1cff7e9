import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';

/** The Inductions module's tables, and those of other areas its queries read, by the registry. */
export function inductionTables(registry: Registry) {
  const t = (name: string) => registry.require(name).table;
  return {
    course: t('course'),
    question: t('course-question'),
    session: t('training-session'),
    booking: t('training-booking'),
    record: t('induction-record'),
    person: t('person'),
    company: t('company'),
    user: t('user'),
    accreditation: t('accreditation'),
    request: t('request'),
    bulkRow: t('bulk-upload-row'),
    credential: t('credential'),
  };
}

export type InductionTables = ReturnType<typeof inductionTables>;

export type Row = Record<string, unknown>;

export { inChunks } from '../../db/chunks.js';

export const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
export const day = (v: unknown): string => text(v).slice(0, 10);

/**
 * A record's or booking's rows (`table` as x) with their person (p), course (c) and company (m),
 * selecting the columns that name them; of the office's client and division, and of a requester's
 * company only.
 */
export function named(
  db: Db,
  t: InductionTables,
  table: string,
  office: { clientId: number; divisionId: number; companyId?: number },
) {
  const query = db
    .selectFrom(`${table} as x`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'x.IdPersona')
    .innerJoin(`${t.course} as c`, 'c.IdCurso', 'x.IdCurso')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'x.IdCompania')
    .select([
      'x.IdPersona',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'm.Alias as Compania',
      'c.Codigo',
      'c.Nombre as Curso',
      'c.NombreIngles as CursoIngles',
    ])
    .where('x.IdCliente', '=', office.clientId)
    .where('x.IdDivision', '=', office.divisionId);
  return office.companyId === undefined ? query : query.where('x.IdCompania', '=', office.companyId);
}

/** A named row's person and course, as the calls answer them. */
export const namesOf = (r: Row) => ({
  IdPersona: Number(r.IdPersona),
  Documento: text(r.Documento),
  Persona: `${text(r.Apellido)} ${text(r.Nombre)}`,
  Compania: text(r.Compania),
  Codigo: text(r.Codigo),
  Curso: text(r.Curso),
  CursoIngles: text(r.CursoIngles),
});
