import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { esES } from '@mui/x-date-pickers/locales';
import type { WidgetProps } from '@rjsf/utils';
import { format, isValid, parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { es } from 'date-fns/locale/es';
import { type ReactNode, useEffect, useState } from 'react';
import { useInput, useLocale, useResourceContext, useTranslate } from 'react-admin';

/** Dates read and are typed as the spec displays them (section 9), in either language. */
export const DATE_FORMAT = 'dd/MM/yyyy';
export const DATE_TIME_FORMAT = 'dd/MM/yyyy HH:mm:ss';
/** A value that no date matches: the form's date check refuses it ("invalid date"). */
const NOT_A_DATE = 'invalid-date';

const LOCALES = {
  // The English of the spec's dd/MM/yyyy is British English's.
  en: { dates: enGB, texts: undefined },
  es: { dates: es, texts: esES.components.MuiLocalizationProvider.defaultProps.localeText },
};

/** The date pickers' language (month and day names, buttons) follows the console's. */
export function DatesProvider({ children }: { children: ReactNode }) {
  const locale = useLocale() === 'en' ? LOCALES.en : LOCALES.es;
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={locale.dates} localeText={locale.texts}>
      {children}
    </LocalizationProvider>
  );
}

/** yyyy-MM-dd (how the API keeps a date) to a date, and back; an unfinished typing stays invalid. */
export function toDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

export function fromDate(date: Date | null): string | undefined {
  if (!date) return undefined;
  return isValid(date) ? format(date, 'yyyy-MM-dd') : NOT_A_DATE;
}

/** A form's date (format date): typed as dd/MM/yyyy or chosen on a calendar in the user's language. */
export function DateWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, label, required, disabled, readonly, rawErrors } = props;
  return (
    <DatePicker
      label={label}
      value={toDate(value)}
      format={DATE_FORMAT}
      disabled={disabled}
      readOnly={readonly}
      onChange={(date) => onChange(fromDate(date))}
      slotProps={{
        textField: {
          id,
          variant: 'filled',
          required,
          fullWidth: true,
          error: (rawErrors?.length ?? 0) > 0,
          onBlur: () => onBlur(id, value),
        },
      }}
    />
  );
}

/** An instant (format date-time), as the spec displays it: dd/MM/yyyy HH:mm:ss in the browser's time zone. */
export function DateTimeWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, label, required, disabled, readonly, rawErrors } = props;
  const date = typeof value === 'string' && value ? new Date(value) : null;
  return (
    <DateTimePicker
      label={label}
      value={date && isValid(date) ? date : null}
      format={DATE_TIME_FORMAT}
      ampm={false}
      views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
      disabled={disabled}
      readOnly={readonly}
      onChange={(next) => onChange(next ? (isValid(next) ? next.toISOString() : NOT_A_DATE) : undefined)}
      slotProps={{
        textField: {
          id,
          variant: 'filled',
          required,
          fullWidth: true,
          error: (rawErrors?.length ?? 0) > 0,
          onBlur: () => onBlur(id, value),
        },
      }}
    />
  );
}

/**
 * A list filter on a date, with the same picker; applied when a whole, valid date is typed or
 * chosen. What is being typed is the picker's own until then: the filter form, which resets its
 * values whenever the list's filters change (another filter added, a debounced one applied), does
 * not wipe a half-typed date; only another date (or none) coming from the list replaces it.
 */
export function DateFilterInput({
  source,
  label,
}: {
  source: string;
  label?: ReactNode;
  alwaysOn?: boolean;
}) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const { field, id } = useInput({ source });
  const applied = typeof field.value === 'string' ? field.value : '';
  const [typed, setTyped] = useState<Date | null>(() => toDate(applied));
  useEffect(() => {
    setTyped((now) => (fromDate(now) === (applied || undefined) ? now : toDate(applied)));
  }, [applied]);
  return (
    <DatePicker
      label={label ?? translate(`resources.${resource}.fields.${source}`, { _: source })}
      value={typed}
      format={DATE_FORMAT}
      onChange={(date, context) => {
        setTyped(date);
        // A date is applied once typed whole: while the year is being typed (0002, 0020, 0202)
        // the picker refuses it as before its earliest date, and the list is not filtered by it.
        if (context.validationError) return;
        const next = fromDate(date);
        if (next !== NOT_A_DATE) field.onChange(next ?? '');
      }}
      slotProps={{ textField: { id, variant: 'filled', size: 'small', sx: { minWidth: 200 } } }}
    />
  );
}
