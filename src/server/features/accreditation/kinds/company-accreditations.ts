import type { ExpressionBuilder } from 'kysely';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { ApiError } from '../../../errors.js';
import type { Requester } from '../../../services/requester.js';
import type { RequestEngine } from '../engine/engine.js';

/**
 * The condition on an accreditation `a` that it is the requester's company's, of the kind
 * `entity` (a company's own, not its people's; a visitor's, not a worker's), in the session's
 * division, active or suspended.
 */
export const ofRequesterCompany =
  (requester: Requester, entity: EntityCode) =>
  // biome-ignore lint/suspicious/noExplicitAny: the tables are the registry's, named at run time
  (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      eb('a.IdCliente', '=', requester.principal.clientId as number),
      eb('a.IdDivision', '=', requester.principal.divisionId as number),
      eb('a.IdCompania', '=', requester.companyId),
      eb('a.IdEntidad', '=', entity),
      eb('a.Estado', 'in', ['A', 'S']),
    ]);

/**
 * The requester's company's accreditations of a kind it requests (`ofRequesterCompany`), as `a`,
 * with their holder (document and names, or plate) and contract number: what the demobilisation
 * and renewal screens list. A kind the requester does not request is refused.
 */
export function companyAccreditations(engine: RequestEngine, requester: Requester, entity: EntityCode) {
  if (!requester.entities.includes(entity)) throw new ApiError('FORBIDDEN');
  const t = (name: string) => engine.table(name);
  return engine.database.db
    .selectFrom(`${t('accreditation')} as a`)
    .leftJoin(`${t('person')} as p`, 'p.IdPersona', 'a.IdPersona')
    .leftJoin(`${t('vehicle')} as v`, 'v.IdVehiculo', 'a.IdVehiculo')
    .leftJoin(`${t('contract')} as k`, 'k.IdContrato', 'a.IdContrato')
    .select([
      'a.IdAcreditacion',
      'a.IdEntidad',
      'a.IdPersona',
      'a.IdVehiculo',
      'a.IdContrato',
      'k.NumeroContrato',
      'a.FechaInicio',
      'a.FechaFin',
      'a.Estado',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'v.Placa',
    ])
    .where(ofRequesterCompany(requester, entity));
}
