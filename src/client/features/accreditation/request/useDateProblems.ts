import { useQuery } from '@tanstack/react-query';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { siteDate } from '../../../../shared/dates.js';
import { requestDateProblems } from '../../../../shared/request-dates.js';
import { session } from '../../../session/store.js';
import { restRecord } from '../api.js';

type Data = Record<string, unknown>;

/**
 * The request's dates, checked as the server checks them (src/shared/request-dates.ts): the start
 * from the site's today, both within the contract's dates, a visit within its profile's longest
 * stay, a worker's birth date.
 */
export function useDateProblems(entity: EntityCode, header: Data, holder: Data) {
  const contractDates = useQuery({
    queryKey: ['accreditation', 'contract-dates', header.IdContrato],
    queryFn: () =>
      restRecord<{ FechaInicio: string; FechaFin: string }>('contract', header.IdContrato as number),
    enabled: typeof header.IdContrato === 'number',
  });
  const profileDays = useQuery({
    queryKey: ['accreditation', 'profile-days', header.IdPerfilAcreditacion],
    queryFn: () =>
      restRecord<{ MaxDiasVisita?: number | null }>(
        'accreditation-profile',
        header.IdPerfilAcreditacion as number,
      ),
    enabled: entity === 'P' && typeof header.IdPerfilAcreditacion === 'number',
  });
  return requestDateProblems(
    {
      FechaInicio: header.FechaInicio as string | undefined,
      FechaFin: header.FechaFin as string | undefined,
      FechaNacimiento: entity === 'T' ? (holder.FechaNacimiento as string | undefined) : undefined,
    },
    {
      today: siteDate(session.siteCountry()),
      contract: contractDates.data,
      longestVisit: profileDays.data?.MaxDiasVisita ?? undefined,
    },
  );
}
