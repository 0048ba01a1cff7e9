import { InputAdornment, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslate } from 'react-admin';

const HEX = /^#[0-9A-Fa-f]{6}$/;

/**
 * A colour (x-widget color) as its #RRGGBB code, typed or picked with the browser's colour
 * picker beside it. An empty field stays empty: no colour is chosen for the user.
 */
export default function ColorWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, rawErrors } = props;
  const translate = useTranslate();
  const text = typeof value === 'string' ? value : '';
  const off = disabled || readonly;
  return (
    <TextField
      id={id}
      label={label}
      required={required}
      fullWidth
      value={text}
      disabled={off}
      error={(rawErrors?.length ?? 0) > 0}
      placeholder="#RRGGBB"
      onChange={(event) => onChange(event.target.value.toUpperCase() || undefined)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{
        htmlInput: { maxLength: 7 },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <input
                type="color"
                aria-label={translate('app.form.pickColor')}
                value={HEX.test(text) ? text.toLowerCase() : '#000000'}
                disabled={off}
                onChange={(event) => onChange(event.target.value.toUpperCase())}
                style={{ width: 36, height: 28, border: 0, padding: 0, background: 'none' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
