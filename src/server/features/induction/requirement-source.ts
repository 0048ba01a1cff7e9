import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import type { RequirementEvidence, RequirementQuery, RequirementSource } from '../../requirement-sources.js';
import type { FeatureContext } from '../feature.js';

/**
 * The name inductions prove requirements under: what a revocation tells the accreditation side,
 * `endSourcedRequirements(trx, registry, { source: INDUCTION_SOURCE, ref: IdRegistro, on })`.
 */
export const INDUCTION_SOURCE = 'induction';

/** A passed induction of a course bound to a requirement, with what the authoriser reads of it. */
interface Passed {
  IdRegistro: number;
  IdRequisito: number;
  Fecha: string;
  Nota: number;
  VenceEl: string;
  IdInstructor: string | null;
  Codigo: string;
  Nombre: string;
  Apellido: string | null;
  NombreInstructor: string | null;
}

/** The certificate of a passed induction (served by the induction's calls). */
export const certificatePath = (id: number) => `/api/induccion/registros/${id}/certificado`;

function evidenceOf(row: Passed): RequirementEvidence {
  const trainer =
    [row.NombreInstructor, row.Apellido].filter(Boolean).join(' ') || row.IdInstructor || undefined;
  return {
    ref: row.IdRegistro,
    issued: row.Fecha,
    expires: row.VenceEl,
    facts: {
      course: `${row.Codigo} ${row.Nombre}`,
      date: row.Fecha,
      score: Number(row.Nota),
      ...(trainer ? { trainer } : {}),
      validUntil: row.VenceEl,
      record: row.IdRegistro,
    },
    link: certificatePath(row.IdRegistro),
    text: trainer,
    number: Number(row.Nota),
  };
}

/**
 * The person's valid inductions of the courses bound to the asked requirements, in the request's
 * division: valid (not revoked), passed by the site's today, and holding on today and on the
 * request's start. Each requirement is proven by the one that holds longest.
 */
async function prove(db: Db, registry: Registry, query: RequirementQuery) {
  const t = (resource: string) => registry.require(resource).table;
  const from = query.FechaInicio > query.today ? query.FechaInicio : query.today;
  const rows = (await db
    .selectFrom(`${t('induction-record')} as r`)
    .innerJoin(`${t('course')} as c`, 'c.IdCurso', 'r.IdCurso')
    .leftJoin(`${t('user')} as u`, 'u.IdUsuario', 'r.IdInstructor')
    .select([
      'r.IdRegistro',
      'c.IdRequisito',
      'r.Fecha',
      'r.Nota',
      'r.VenceEl',
      'r.IdInstructor',
      'c.Codigo',
      'c.Nombre',
      'u.Nombre as NombreInstructor',
      'u.Apellido',
    ])
    .where('r.IdCliente', '=', query.IdCliente)
    .where('r.IdDivision', '=', query.IdDivision)
    .where('r.IdPersona', '=', query.IdPersona)
    .where('r.Estado', '=', 'V')
    .where('r.Fecha', '<=', query.today)
    .where('r.VenceEl', '>=', from)
    .where('c.IdRequisito', 'in', [...query.requirements])
    .orderBy('r.VenceEl', 'desc')
    .orderBy('r.IdRegistro', 'desc')
    .execute()) as Passed[];
  const proofs = new Map<number, RequirementEvidence>();
  for (const row of rows) if (!proofs.has(row.IdRequisito)) proofs.set(row.IdRequisito, evidenceOf(row));
  return proofs;
}

/** Inductions as a requirement source of accreditation (the feature contract's requirementSources). */
export function requirementSources({ registry }: FeatureContext): RequirementSource[] {
  return [{ name: INDUCTION_SOURCE, prove: (db, query) => prove(db, registry, query) }];
}
