import InboxIcon from '@mui/icons-material/Inbox';
import {
  Box,
  ButtonBase,
  Card,
  CardContent,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Pager } from './Pager.js';

/** A grid's sort as the spec's list calls take it: [{ selector, desc }]. */
export interface GridSort {
  selector: string;
  desc: boolean;
}

export interface GridState {
  page: number;
  perPage: number;
  sort?: GridSort;
}

export interface GridColumn<T> {
  id: string;
  label: string;
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  render?(row: T): ReactNode;
}

/** A grid's page, sort and size, kept by the screen that shows it. */
export function useGridState(perPage: number, sort?: GridSort) {
  const [state, setState] = useState<GridState>({ page: 0, perPage, sort });
  return [state, setState] as const;
}

/** The page of a grid state as the spec's list calls take it: skip, take and the sort as JSON. */
export function gridParams(state: GridState): Record<string, string> {
  return {
    skip: String(state.page * state.perPage),
    take: String(state.perPage),
    ...(state.sort ? { sort: JSON.stringify([state.sort]) } : {}),
  };
}

/** A paged list call's answer (a query of { data, totalCount }) as a grid's rows, total and loading. */
export function pageOf<T>(query: { data?: { data: T[]; totalCount: number }; isFetching: boolean }) {
  return { rows: query.data?.data, total: query.data?.totalCount, loading: query.isFetching };
}

interface GridProps<T> {
  /** What the grid lists, for readers of the screen (its table's or cards' name). */
  label: string;
  columns: GridColumn<T>[];
  rows: T[] | undefined;
  total: number | undefined;
  loading?: boolean;
  state: GridState;
  onState(state: GridState): void;
  rowKey(row: T): string | number;
  /** A row opens something: the whole row (or card) is the button. */
  onRowClick?(row: T): void;
  selectedKey?: string | number;
  empty?: ReactNode;
  pageSizes?: number[];
  /** False for a short list shown whole (no paginator). */
  paged?: boolean;
  testId?: string;
}

/**
 * A server-paged grid (spec section 7's list calls: skip, take, sort): a table with sortable
 * headers and a paginator; below the md breakpoint the same rows as cards, so nothing is wider
 * than a phone.
 */
export function Grid<T>({
  label,
  columns,
  rows,
  total,
  loading,
  state,
  onState,
  rowKey,
  onRowClick,
  selectedKey,
  empty,
  pageSizes = [5, 10, 20, 50],
  paged = true,
  testId,
}: GridProps<T>) {
  const translate = useTranslate();
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const cell = (column: GridColumn<T>, row: T) =>
    column.render ? column.render(row) : String((row as Record<string, unknown>)[column.id] ?? '');
  const sortBy = (column: GridColumn<T>) =>
    onState({
      ...state,
      page: 0,
      sort: {
        selector: column.id,
        desc: state.sort?.selector === column.id ? !state.sort.desc : false,
      },
    });
  const paginator = (
    <Pager
      count={total ?? 0}
      page={state.page}
      rowsPerPage={state.perPage}
      rowsPerPageOptions={pageSizes}
      onPageChange={(_event, page) => onState({ ...state, page })}
      onRowsPerPageChange={(event) => onState({ ...state, page: 0, perPage: Number(event.target.value) })}
    />
  );
  const nothing = !loading && rows !== undefined && rows.length === 0;
  return (
    <Box data-testid={testId}>
      {loading && <LinearProgress aria-label={translate('ra.page.loading')} />}
      {nothing ? (
        <Stack alignItems="center" spacing={1} sx={{ py: 4, textAlign: 'center' }} className="grid-empty">
          <InboxIcon sx={{ fontSize: 48 }} color="disabled" />
          <Typography color="text.secondary">{empty ?? translate('app.grid.empty')}</Typography>
        </Stack>
      ) : narrow ? (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 1 }} aria-label={label}>
          {(rows ?? []).map((row) => {
            const [first, ...others] = columns;
            const content = (
              <CardContent sx={{ py: 1.5 }}>
                <Typography variant="subtitle1" component="p" sx={{ fontWeight: 500, mb: 0.5 }}>
                  {onRowClick ? (
                    // The card's own button: its title (the card's other cells may hold buttons of theirs).
                    <ButtonBase
                      onClick={(event) => {
                        event.stopPropagation();
                        onRowClick(row);
                      }}
                      sx={{ font: 'inherit', textAlign: 'left', borderRadius: 1 }}
                    >
                      {cell(first, row)}
                    </ButtonBase>
                  ) : (
                    cell(first, row)
                  )}
                </Typography>
                <Box
                  component="dl"
                  sx={{
                    display: 'grid',
                    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
                    columnGap: 2,
                    rowGap: 0.5,
                    m: 0,
                    overflowWrap: 'anywhere',
                  }}
                >
                  {others.map((column) => {
                    const value = cell(column, row);
                    // A card leaves out what a row has nothing in (no value, no button).
                    if (value === null || value === undefined || value === '') return null;
                    return (
                      <div key={column.id}>
                        <Typography component="dt" variant="caption" color="text.secondary">
                          {column.label}
                        </Typography>
                        <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                          {value}
                        </Typography>
                      </div>
                    );
                  })}
                </Box>
              </CardContent>
            );
            return (
              <li key={rowKey(row)}>
                <Card
                  variant="outlined"
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  sx={{
                    ...(onRowClick ? { cursor: 'pointer', '&:hover': { bgcolor: 'action.hover' } } : {}),
                    ...(selectedKey === rowKey(row) ? { borderColor: 'primary.main' } : {}),
                  }}
                >
                  {content}
                </Card>
              </li>
            );
          })}
        </Stack>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell
                    key={column.id}
                    align={column.align}
                    sortDirection={
                      state.sort?.selector === column.id ? (state.sort.desc ? 'desc' : 'asc') : false
                    }
                  >
                    {column.sortable ? (
                      <TableSortLabel
                        active={state.sort?.selector === column.id}
                        direction={state.sort?.selector === column.id && state.sort.desc ? 'desc' : 'asc'}
                        onClick={() => sortBy(column)}
                      >
                        {column.label}
                      </TableSortLabel>
                    ) : (
                      column.label
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows ?? []).map((row) => (
                <TableRow
                  key={rowKey(row)}
                  hover={Boolean(onRowClick)}
                  selected={selectedKey === rowKey(row)}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  sx={onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {columns.map((column) => (
                    <TableCell key={column.id} align={column.align}>
                      {cell(column, row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {!nothing && paged && paginator}
    </Box>
  );
}

/** A grid over rows all in hand (a short list): it keeps its own page and shows that page's rows. */
export function LocalGrid<T>({
  rows,
  perPage = 10,
  ...props
}: Omit<GridProps<T>, 'total' | 'state' | 'onState' | 'loading'> & { perPage?: number }) {
  const [state, setState] = useGridState(perPage);
  const shown = rows?.slice(state.page * state.perPage, (state.page + 1) * state.perPage);
  return (
    <Grid
      {...props}
      rows={shown}
      total={rows?.length}
      loading={rows === undefined}
      state={state}
      onState={setState}
    />
  );
}

/** A column naming a person, their document under the name. */
export function personColumn<T extends { Persona: string; Documento: string }>(label: string): GridColumn<T> {
  return {
    id: 'Persona',
    label,
    render: (row) => (
      <span>
        {row.Persona}
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {row.Documento}
        </Typography>
      </span>
    ),
  };
}
