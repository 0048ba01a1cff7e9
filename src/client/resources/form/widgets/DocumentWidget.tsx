import { TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useGetOne, useTranslate } from 'react-admin';
import { DEFAULT_DOCUMENT_LENGTH } from '../../../../shared/constants.js';
import { formValues } from './ReferenceWidget.js';

/**
 * An identity document: its type's length and characters hold the input, and its mask shows
 * under it (spec section 5). The server checks the rest, the check digit included.
 */
export default function DocumentWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, rawErrors, options } =
    props;
  const translate = useTranslate();
  const typeId = formValues(props)[String(options.typeField)];
  const { data: type } = useGetOne(
    'document-type',
    { id: typeId },
    { enabled: typeId !== undefined && typeId !== null },
  );
  const length = (type?.Longitud as number | undefined) ?? DEFAULT_DOCUMENT_LENGTH;
  const hint = type
    ? translate(type.LongitudFija === 'S' ? 'app.form.documentExact' : 'app.form.documentMax', {
        length,
        mask: type.Mascara ?? '—',
      })
    : translate('app.form.documentType');
  return (
    <TextField
      id={id}
      label={label}
      required={required}
      fullWidth
      value={value ?? ''}
      disabled={disabled || readonly}
      error={(rawErrors?.length ?? 0) > 0}
      helperText={hint}
      slotProps={{ htmlInput: { maxLength: length } }}
      onChange={(event) =>
        onChange(event.target.value ? event.target.value.toLocaleUpperCase('es') : undefined)
      }
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
