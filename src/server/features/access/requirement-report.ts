import type { BlockedRow } from '../../../shared/access.js';
import { daysBetween } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import type { HeadcountScope } from './headcount.js';

/**
 * The requirement report (spec section 2, Access): who the gate turns away for an expired
 * mandatory requirement, and which one. The holders accredited in the division (active or
 * suspended), each kept mandatory value that expired before `today` and that no active exoneration
 * of the division covers today (the gate's own rule), longest expired first. A contractor sees its
 * company's; the client's security office the division's.
 */
export async function blockedByRequirements(
  db: Db,
  registry: Registry,
  scope: HeadcountScope,
  today: string,
  kind?: 'T' | 'V',
): Promise<BlockedRow[]> {
  const table = (name: string) => registry.require(name).table;
  const out = new Map<string, BlockedRow>();
  for (const column of ['IdPersona', 'IdVehiculo'] as const) {
    if (kind && (kind === 'T') !== (column === 'IdPersona')) continue;
    let q = db
      .selectFrom(`${table('accredited-requirement')} as k`)
      .innerJoin(`${table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
      .innerJoin(`${table('accreditation')} as a`, `a.${column}`, `k.${column}`)
      .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'a.IdCompania')
      .leftJoin(`${table('contract')} as ct`, 'ct.IdContrato', 'a.IdContrato')
      .select([
        'a.IdAcreditacion',
        'a.IdEntidad',
        'a.Estado',
        'k.IdRequisito',
        'k.FechaVencimiento',
        'q.Requisito',
        'c.Compania',
        'ct.NumeroContrato',
        `k.${column} as holder`,
      ])
      .where('k.IdCliente', '=', scope.clientId)
      .where('a.IdDivision', '=', scope.divisionId)
      .where('a.Estado', 'in', ['A', 'S'])
      .where('q.Obligatorio', '=', 'S')
      .where('k.FechaVencimiento', '<', today);
    if (scope.companyId !== undefined) q = q.where('a.IdCompania', '=', scope.companyId);
    if (column === 'IdPersona')
      q = q
        .leftJoin(`${table('person')} as p`, 'p.IdPersona', 'k.IdPersona')
        .select(['p.Documento', 'p.Apellido', 'p.Nombre'])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(`${table('exoneration')} as e`)
                .select('e.IdExoneracion')
                .whereRef('e.IdPersona', '=', 'k.IdPersona')
                .whereRef('e.IdRequisito', '=', 'k.IdRequisito')
                .where('e.IdDivision', '=', scope.divisionId)
                .where('e.Activo', '=', 'S')
                .where((eb) => eb.or([eb('e.FechaInicio', 'is', null), eb('e.FechaInicio', '<=', today)]))
                .where((eb) => eb.or([eb('e.FechaFin', 'is', null), eb('e.FechaFin', '>=', today)])),
            ),
          ),
        );
    else q = q.leftJoin(`${table('vehicle')} as v`, 'v.IdVehiculo', 'k.IdVehiculo').select('v.Placa');
    const rows = (await q.execute()) as Array<Record<string, unknown>>;
    for (const row of rows) {
      const key = `${row.IdAcreditacion}:${row.IdRequisito}`;
      if (out.has(key)) continue;
      const expiry = String(row.FechaVencimiento);
      out.set(key, {
        IdAcreditacion: Number(row.IdAcreditacion),
        IdEntidad: String(row.IdEntidad),
        IdPersona: column === 'IdPersona' ? Number(row.holder) : null,
        IdVehiculo: column === 'IdVehiculo' ? Number(row.holder) : null,
        Documento: (row.Documento as string | undefined) ?? null,
        NombreCompleto: row.Apellido ? `${row.Apellido} ${row.Nombre ?? ''}`.trim() : null,
        Placa: (row.Placa as string | undefined) ?? null,
        Compania: (row.Compania as string | null) ?? null,
        NumeroContrato: (row.NumeroContrato as string | null) ?? null,
        Requisito: String(row.Requisito),
        FechaVencimiento: expiry,
        DiasVencido: daysBetween(expiry, today),
        Estado: String(row.Estado),
      });
    }
  }
  return [...out.values()].sort(
    (a, b) => b.DiasVencido - a.DiasVencido || a.Requisito.localeCompare(b.Requisito, 'es'),
  );
}
