import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Pick } from '../../components/fields.js';
import { attendanceApi } from './api.js';

/** The client's active justifications, read once for every dialog that offers them. */
export const useJustifications = (enabled = true) =>
  useQuery({ queryKey: ['attendance-justifications'], queryFn: attendanceApi.justifications, enabled });

/** A justification of the catalogue to choose, by its description and reference code. */
export function JustificationPick({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number | '';
  onChange(value: number | ''): void;
}) {
  const translate = useTranslate();
  const catalogue = useJustifications();
  return (
    <Pick
      id={id}
      label={translate('attendance.justify.justification')}
      value={value}
      options={(catalogue.data ?? []).map((j) => ({
        value: j.IdJustificacion,
        label: `${j.Descripcion} (${j.CodigoReferencia})`,
      }))}
      onChange={onChange}
      width="100%"
      required
    />
  );
}
