import SearchIcon from '@mui/icons-material/Search';
import { FormControl, InputAdornment, InputLabel, MenuItem, Select, TextField } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../resources/form/dates.js';

export interface Option<T extends string | number> {
  value: T;
  label: string;
}

/** A select of a few options; `none` names the empty choice (all, or none chosen) when there is one. */
export function Pick<T extends string | number>({
  id,
  label,
  value,
  options,
  onChange,
  none,
  width = 220,
  required,
}: {
  id: string;
  label: string;
  value: NoInfer<T> | '';
  options: Option<T>[];
  onChange(value: NoInfer<T> | ''): void;
  none?: string;
  width?: number | string;
  required?: boolean;
}) {
  // With an empty choice, it shows in the box: "all" reads better than a blank.
  const empty = none !== undefined;
  return (
    <FormControl size="small" required={required} sx={{ width: { xs: '100%', sm: width } }}>
      <InputLabel id={`${id}-label`} shrink={empty || undefined}>
        {label}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        label={label}
        displayEmpty={empty}
        notched={empty || undefined}
        value={options.some((o) => o.value === value) ? value : ''}
        onChange={(event) => {
          const picked = event.target.value as T | '';
          const option = options.find((o) => String(o.value) === String(picked));
          onChange(option ? option.value : '');
        }}
      >
        {none !== undefined && <MenuItem value="">{none}</MenuItem>}
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** A date typed as dd/MM/yyyy or picked on a calendar, kept as yyyy-MM-dd. */
export function DateInput({
  id,
  label,
  value,
  onChange,
  min,
  width = 180,
  disabled,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  min?: string;
  width?: number;
  disabled?: boolean;
}) {
  return (
    <DatesProvider>
      <DatePicker
        label={label}
        format={DATE_FORMAT}
        value={toDate(value)}
        minDate={toDate(min) ?? undefined}
        disabled={disabled}
        onChange={(v) => onChange(fromDate(v))}
        slotProps={{ textField: { id, size: 'small', sx: { width: { xs: '100%', sm: width } } } }}
      />
    </DatesProvider>
  );
}

/** A text box to search with, a magnifying glass at its start. */
export function SearchField({
  id,
  label,
  value,
  onChange,
  helperText,
  width = 320,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  helperText?: string;
  width?: number;
}) {
  return (
    <TextField
      id={id}
      size="small"
      label={label}
      helperText={helperText}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoComplete="off"
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={{ width: { xs: '100%', sm: width } }}
    />
  );
}
