import { addDays } from '../../../shared/dates.js';
import type { HookMap } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { claimOf, recordEmployment } from './employment.js';

/** The contract a contract's part (subcontractor, unit, service) belongs to. */
const contractOf = (db: Db, registry: Registry, id: unknown) =>
  db
    .selectFrom(registry.require('contract').table)
    .select(['IdCompaniaContratista', 'FechaInicio', 'FechaFin'])
    .where('IdContrato', '=', Number(id))
    .executeTakeFirst() as Promise<
    { IdCompaniaContratista: number; FechaInicio: string; FechaFin: string } | undefined
  >;

const refuse = (fields: Record<string, string>, params?: Record<string, string>): never => {
  throw new ApiError('VALIDATION_FAILED', {
    fields: Object.fromEntries(
      Object.entries(fields).map(([field, messageKey]) => [field, { messageKey, params }]),
    ),
  });
};

/** Rules of the administration screens beyond the schemas (spec section 4). */
export function administrationHooks(registry: Registry): HookMap {
  return {
    // Operators 1 and 2 are two people: the holder and the alternate.
    contract: {
      async beforeWrite({ data }) {
        if (data.IdOperador1 && data.IdOperador1 === data.IdOperador2)
          refuse({ IdOperador2: 'rules.contractOperatorsSame' });
      },
    },
    // A subcontractor is another company, working within the contract's period.
    'contract-subcontractor': {
      async beforeWrite({ db, data }) {
        const contract = await contractOf(db, registry, data.IdContrato);
        if (!contract) return;
        if (Number(data.IdCompania) === Number(contract.IdCompaniaContratista))
          refuse({ IdCompania: 'rules.subcontractorIsContractor' });
        const start = String(data.FechaInicio ?? '');
        const end = String(data.FechaFin ?? '');
        const params = { start: contract.FechaInicio, end: contract.FechaFin };
        if (start < contract.FechaInicio || start > contract.FechaFin)
          refuse({ FechaInicio: 'rules.outsideContract' }, params);
        if (end > contract.FechaFin) refuse({ FechaFin: 'rules.outsideContract' }, params);
      },
    },
    // A recorded indiscipline takes its kind's severity and days of sanction unless others are given.
    'person-indiscipline': {
      async beforeWrite({ db, data }) {
        const kind = (await db
          .selectFrom(registry.require('indiscipline').table)
          .select(['Gravedad', 'DiasSancion'])
          .where('IdIndisciplina', '=', Number(data.IdIndisciplina))
          .executeTakeFirst()) as { Gravedad: number; DiasSancion: number } | undefined;
        if (!kind) return;
        data.Gravedad ??= kind.Gravedad;
        if (typeof data.Fecha === 'string') data.FechaHasta ??= addDays(data.Fecha, Number(kind.DiasSancion));
      },
    },
    // A maintenance's next due day follows from its kind's period unless given (none for one on demand).
    'vehicle-maintenance': {
      async beforeWrite({ db, data }) {
        if (data.FechaProxima != null || typeof data.Fecha !== 'string') return;
        const kind = (await db
          .selectFrom(registry.require('maintenance-type').table)
          .select('PeriodicidadDias')
          .where('IdTipoMantenimiento', '=', Number(data.IdTipoMantenimiento))
          .executeTakeFirst()) as { PeriodicidadDias: number } | undefined;
        if (kind && Number(kind.PeriodicidadDias) > 0)
          data.FechaProxima = addDays(data.Fecha, Number(kind.PeriodicidadDias));
      },
    },
    person: {
      // Registered by another company once ceased or free, the person moves (employment.ts).
      claim: ({ db, data }) => claimOf(db, registry, data),
      async afterWrite({ db, row, existing, principal }) {
        await recordEmployment(db, registry, principal, row, existing);
      },
      // A person holding a position must be ceased before another is assigned (reinstating a
      // ceased person with a new position is the way back).
      async beforeWrite({ data, existing, operation }) {
        if (operation !== 'update' || !existing) return;
        const before = existing.IdPosicion ?? null;
        const after = data.IdPosicion ?? null;
        if (before !== null && after !== before && existing.Condicion !== 'C')
          throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.personMustCease' });
      },
    },
  };
}
