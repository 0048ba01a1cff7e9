import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { type EntityCode, requestNumber } from '../../../../shared/accreditation.js';
import type { ResourceMeta } from '../../../../shared/schema/types.js';
import { formatDate } from '../../../format.js';
import { useMeta } from '../../../providers/meta.js';
import { useSettled } from '../../../useSettled.js';
import { accreditationApi, type Known } from '../api.js';

type Data = Record<string, unknown>;

/**
 * On a new request, the worker or vehicle typed in may already be registered: its data fill in
 * what is still empty, and an open request or a current accreditation is said at once.
 */
export function useKnownHolder(
  entity: EntityCode,
  isNew: boolean,
  holder: Data,
  fill: (found: Data) => void,
) {
  const key =
    entity === 'T'
      ? holder.IdTipoDocumento && String(holder.Documento ?? '').trim().length >= 6
        ? `${holder.IdTipoDocumento}|${String(holder.Documento).trim().toLocaleUpperCase('es')}`
        : undefined
      : entity === 'V' && String(holder.Placa ?? '').trim().length >= 5
        ? String(holder.Placa).trim().toLocaleUpperCase('es')
        : undefined;
  const settled = useSettled(key);
  const known = useQuery({
    queryKey: ['accreditation', 'known', entity, settled],
    queryFn: () => {
      const [type, document] = (settled as string).split('|');
      return accreditationApi.known(
        entity === 'T'
          ? { IdEntidad: entity, IdTipoDocumento: type, Documento: document }
          : { IdEntidad: entity, Placa: settled },
      );
    },
    enabled: isNew && entity !== 'P' && settled !== undefined && settled === key,
    retry: false,
    staleTime: 60_000,
  });
  const found = known.data?.persona ?? known.data?.vehiculo ?? undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per record found
  useEffect(() => {
    if (found) fill(found);
  }, [found]);
  return settled === key ? known.data : undefined;
}

export function KnownHolder({ entity, known }: { entity: EntityCode; known?: Known }) {
  const translate = useTranslate();
  const found = known?.persona ?? known?.vehiculo;
  if (!known || !found) return null;
  const open = known.solicitudAbierta;
  const accredited = known.acreditacion;
  return (
    <Alert severity={open ? 'warning' : 'info'} data-testid="known-holder">
      {translate(`accreditation.form.known.${entity}`)}
      {open &&
        ` ${translate('accreditation.form.known.open', {
          number: requestNumber(open.IdSolicitud),
          status: translate(`enums.requestStatus.${open.EstadoAprobacion}`),
        })}`}
      {accredited &&
        ` ${translate('accreditation.form.known.accredited', { date: formatDate(accredited.FechaFin) })}`}
    </Alert>
  );
}

export function useResource(name: string): ResourceMeta | undefined {
  return useMeta().resources.find((r) => r.name === name);
}
