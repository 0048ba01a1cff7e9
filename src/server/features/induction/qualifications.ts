import type { RequiredQualification } from '../../../shared/access/decision.js';
import type { Db } from '../../db/connection.js';
import type { Link, Registry } from '../../registry.js';
import { among, type QualificationSource } from '../../services/site/loader.js';
import type { FeatureContext } from '../feature.js';

type Row = Record<string, unknown>;

/** The link table of one of a course's sets: the zones or the doors that require it. */
function linkOf(registry: Registry, field: 'Zonas' | 'Puertas'): Link {
  const link = registry.require('course').references.find((r) => r.field === field)?.many;
  if (!link) throw new Error(`course has no ${field} links`);
  return link;
}

/** The values linked to one course, in order. */
const linked = (rows: Row[], courseId: number) =>
  rows
    .filter((r) => Number(r.owner) === courseId)
    .map((r) => Number(r.value))
    .sort((a, b) => a - b);

/**
 * Inductions at the doors: an active course requires itself at the doors it names and at every door
 * of the zones it names (the decision adds the zones inside them); a person holds it while a record
 * of theirs in state V lasts (VenceEl, its last valid day). A revoked record (R) is not held. The gate
 * reads this through the feature contract (fastify.qualifications), never this folder.
 */
export function inductionQualifications({ registry }: FeatureContext): QualificationSource {
  const course = registry.require('course').table;
  const record = registry.require('induction-record').table;
  const zones = linkOf(registry, 'Zonas');
  const doors = linkOf(registry, 'Puertas');
  const activeCourses = (db: Db, clientId: number, divisionId: number) =>
    db
      .selectFrom(`${course} as c`)
      .where('c.IdCliente', '=', clientId)
      .where('c.IdDivision', '=', divisionId)
      .where('c.Activo', '=', 'S');
  const links = (db: Db, link: Link, clientId: number, divisionId: number) =>
    activeCourses(db, clientId, divisionId)
      .innerJoin(`${link.table} as l`, `l.${link.owner}`, 'c.IdCurso')
      .select([`l.${link.owner} as owner`, `l.${link.value} as value`])
      .execute() as Promise<Row[]>;
  return {
    kind: 'induction',
    async required(db, clientId, divisionId) {
      const [courses, zoneRows, doorRows] = await Promise.all([
        activeCourses(db, clientId, divisionId)
          .select(['c.IdCurso', 'c.Nombre'])
          .orderBy('c.IdCurso')
          .execute() as Promise<Row[]>,
        links(db, zones, clientId, divisionId),
        links(db, doors, clientId, divisionId),
      ]);
      return courses
        .map(
          (c): RequiredQualification => ({
            kind: 'induction',
            id: Number(c.IdCurso),
            name: String(c.Nombre),
            doors: linked(doorRows, Number(c.IdCurso)),
            zones: linked(zoneRows, Number(c.IdCurso)),
          }),
        )
        .filter((q) => q.doors.length || q.zones.length);
    },
    held(db, clientId, personIds) {
      return {
        query: db
          .selectFrom(record)
          .select(['IdPersona', 'IdCurso', 'VenceEl'])
          .where('IdCliente', '=', clientId)
          .where(among('IdPersona', personIds))
          .where('Estado', '=', 'V'),
        read: (r) => ({
          personId: Number(r.IdPersona),
          kind: 'induction' as const,
          id: Number(r.IdCurso),
          until: String(r.VenceEl),
        }),
      };
    },
  };
}
