import { Stack, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { useTranslate } from 'react-admin';

/** What the form knows of each secret's confirmation, for its validation. */
export type Confirmations = Record<string, string>;

/**
 * A secret (x-widget password) asked twice. The server never sends it back, so on an existing
 * record both boxes start empty and an empty secret keeps the stored one; the form refuses to
 * save while the two differ.
 */
export default function PasswordWidget(props: WidgetProps) {
  const { id, name, value, onChange, onBlur, label, required, disabled, readonly, rawErrors, registry } =
    props;
  const context = (registry.formContext ?? {}) as { confirmations?: Confirmations; mode?: string };
  const translate = useTranslate();
  const [confirmation, setConfirmation] = useState('');
  const { confirmations } = context;
  const editing = context.mode === 'edit';
  const confirm = (text: string) => {
    setConfirmation(text);
    if (confirmations) confirmations[name] = text;
  };
  const off = disabled || readonly;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        id={id}
        type="password"
        autoComplete="new-password"
        fullWidth
        label={label}
        required={required}
        disabled={off}
        value={value ?? ''}
        error={(rawErrors?.length ?? 0) > 0}
        helperText={editing ? translate('app.form.secretKept') : undefined}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
        onBlur={() => onBlur(id, value)}
      />
      <TextField
        id={`${id}__confirmation`}
        type="password"
        autoComplete="new-password"
        fullWidth
        label={translate('app.form.confirmSecret', { field: label })}
        required={required || Boolean(value)}
        disabled={off}
        value={confirmation}
        onChange={(event) => confirm(event.target.value)}
      />
    </Stack>
  );
}
