import {
  Box,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * The frame of the security office's reports (the roll call, the requirement report): a card with
 * the title (a heading that counts the rows), the report's own controls and a progress bar while it
 * loads, then the table, which scrolls sideways on a phone, with a sentence when it is empty.
 */
export function ReportPage<Row, Column extends string>({
  testId,
  title,
  controls,
  rows,
  columns,
  heading,
  cell,
  rowKey,
  rowProps,
  empty,
  label,
}: {
  testId: string;
  title: string;
  controls: ReactNode;
  rows: UseQueryResult<Row[]>;
  columns: readonly Column[];
  heading: (column: Column) => string;
  cell: (row: Row, column: Column) => ReactNode;
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => Record<string, unknown>;
  empty: string;
  label: string;
}) {
  const translate = useTranslate();
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid={testId}>
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Typography variant="h6" component="h1" sx={{ flex: '1 1 auto' }}>
            {title}
          </Typography>
          {controls}
        </CardContent>
        {rows.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      </Card>
      <Card>
        {/* On a phone the table scrolls sideways in its box, which the keyboard reaches too. */}
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c}>{heading(c)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows.data ?? []).map((row) => (
                <TableRow key={rowKey(row)} {...rowProps?.(row)}>
                  {columns.map((c) => (
                    <TableCell key={c}>{cell(row, c)}</TableCell>
                  ))}
                </TableRow>
              ))}
              {rows.isSuccess && !rows.data.length && (
                <TableRow>
                  <TableCell colSpan={columns.length}>{empty}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Box>
      </Card>
    </Stack>
  );
}

/** A report's narrowing choice: a labelled drop-down whose first option is "all" (the empty value). */
export function ReportChoice<Value extends string | number>({
  id,
  label,
  all,
  value,
  options,
  onChange,
  minWidth,
}: {
  id: string;
  label: string;
  all: string;
  value: NoInfer<Value> | '';
  options: Array<{ value: Value; label: string }>;
  onChange(value: NoInfer<Value> | ''): void;
  minWidth: number;
}) {
  return (
    <FormControl size="small" sx={{ minWidth }}>
      <InputLabel id={id} shrink>
        {label}
      </InputLabel>
      <Select
        displayEmpty
        labelId={id}
        label={label}
        value={value}
        onChange={(event) => {
          const picked = String(event.target.value);
          onChange(picked === '' ? '' : (options.find((o) => String(o.value) === picked)?.value ?? ''));
        }}
      >
        <MenuItem value="">{all}</MenuItem>
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
