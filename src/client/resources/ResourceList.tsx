import InboxIcon from '@mui/icons-material/Inbox';
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  LinearProgress,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import {
  BulkDeleteButton,
  CreateButton,
  DataTable,
  FilterButton,
  Labeled,
  List,
  Pagination,
  type RaRecord,
  RecordContextProvider,
  SearchInput,
  TopToolbar,
  useCreatePath,
  useListContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { LIST_PAGE_SIZE_OPTIONS } from '../../shared/constants.js';
import type { ResourceMeta } from '../../shared/schema/types.js';
import { useListActions } from '../providers/extensions.js';
import { reachOf, useMeta, useResourceMeta } from '../providers/meta.js';
import ExportButton from './ExportButton.js';
import { companyFilter, fieldFor, filtersFor } from './fields.js';
import { DatesProvider } from './form/dates.js';
import { ScreenTitle } from './ScreenTitle.js';
import { useLabeller } from './useLabeller.js';

const ListActions = ({ canWrite }: { canWrite: boolean }) => {
  const Extra = useListActions(useResourceContext() ?? '');
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {canWrite && Extra && <Extra />}
      <FilterButton />
      {canWrite && <CreateButton />}
      <ExportButton />
    </TopToolbar>
  );
};

/** An empty list says so in words that suit any screen's name, and offers to add the first record. */
function ListEmpty({ meta, canWrite }: { meta: ResourceMeta; canWrite: boolean }) {
  const translate = useTranslate();
  const name = translate(`resources.${meta.name}.name`, { smart_count: 2 });
  return (
    <Stack alignItems="center" spacing={1} sx={{ py: 6, px: 2, textAlign: 'center' }} className="list-empty">
      <InboxIcon sx={{ fontSize: 64 }} color="disabled" />
      <Typography variant="h6" component="p">
        {translate('app.list.empty', { name })}
      </Typography>
      {canWrite && (
        <>
          <Typography color="text.secondary">{translate('app.list.invite')}</Typography>
          <CreateButton variant="contained" />
        </>
      )}
    </Stack>
  );
}

/**
 * The card mode of the lists (spec section 2's screen modes) for narrow screens: one card per
 * record, named as the record reads, with the list's other columns under it; the card opens the
 * record.
 */
function RecordCards({ meta, canWrite }: { meta: ResourceMeta; canWrite: boolean }) {
  const { data, isPending } = useListContext();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const label = useLabeller(meta, data ?? []);
  if (isPending) return <LinearProgress sx={{ m: 2 }} aria-label={translate('ra.page.loading')} />;
  const shown = new Set(meta.schema['x-label']);
  const columns = meta.schema['x-list'].filter((field) => !shown.has(field));
  // A record with no value in its label's fields reads as its id (not one whose references are loading).
  const unlabelled = (record: RaRecord) =>
    meta.schema['x-label'].every((field) => [null, undefined, ''].includes(record[field]));
  return (
    <Stack
      component="ul"
      spacing={1}
      sx={{ listStyle: 'none', m: 0, p: 1 }}
      aria-label={translate('app.list.cards', {
        name: translate(`resources.${meta.name}.name`, { smart_count: 2 }),
      })}
      data-testid="record-cards"
    >
      {(data ?? []).map((record) => (
        <li key={record.id}>
          <RecordContextProvider value={record}>
            <Card variant="outlined">
              <CardActionArea
                component={Link}
                to={createPath({ resource: meta.name, id: record.id, type: canWrite ? 'edit' : 'show' })}
                data-testid="record-link"
              >
                <CardContent sx={{ py: 1.5 }}>
                  <Typography variant="subtitle1" component="p" sx={{ fontWeight: 500, mb: 0.5 }}>
                    {unlabelled(record) ? String(record.id) : label(record)}
                  </Typography>
                  <Box
                    sx={{
                      display: 'grid',
                      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
                      columnGap: 2,
                      rowGap: 0.5,
                      '& .RaLabeled-label': { mb: 0 },
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {columns.map((field) => (
                      <Labeled key={field} source={field} resource={meta.name}>
                        {fieldFor(field, meta, { link: false })}
                      </Labeled>
                    ))}
                  </Box>
                </CardContent>
              </CardActionArea>
            </Card>
          </RecordContextProvider>
        </li>
      ))}
    </Stack>
  );
}

/**
 * The list screen of any entity: columns, sorts and filters as its schema declares; below the
 * md breakpoint (768 px) the same records as cards, so nothing is wider than a phone.
 */
export default function ResourceList() {
  const meta = useResourceMeta();
  const all = useMeta();
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const { schema } = meta;
  const props = schema.properties;
  // A read-only screen (the profile's grant, or the entity's own) lists and shows, nothing more.
  const canWrite = meta.access === 'write';
  const sortable = new Set([meta.primaryKey, ...(schema['x-sortable'] ?? [])]);
  const filters = [
    ...(schema['x-search']?.length ? [<SearchInput key="q" source="q" alwaysOn />] : []),
    ...(schema['x-filters'] ?? [])
      // A filter by records the profile may not read (its own client) would only be refused.
      .filter((field) => {
        const target = props[field]['x-ref']?.resource;
        return !target || reachOf(all, target) !== 'none';
      })
      .flatMap((field) => filtersFor(field, props[field])),
    ...(schema['x-companyFilter'] && reachOf(all, 'company') !== 'none' ? [companyFilter()] : []),
  ];
  return (
    <DatesProvider>
      <List
        perPage={meta.perPage}
        sort={schema['x-defaultSort'] ?? { field: meta.primaryKey, order: 'ASC' }}
        filters={filters}
        actions={<ListActions canWrite={canWrite} />}
        empty={<ListEmpty meta={meta} canWrite={canWrite} />}
        // A table wider than the screen scrolls in its own box; the page keeps the screen's width.
        sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto', contain: 'inline-size' } }}
        pagination={<ListPagination />}
        exporter={false}
      >
        <ScreenTitle kind="list" />
        {narrow ? (
          <RecordCards meta={meta} canWrite={canWrite} />
        ) : (
          <DataTable
            rowClick={canWrite ? 'edit' : 'show'}
            bulkActionButtons={canWrite ? <BulkDeleteButton mutationMode="pessimistic" /> : false}
          >
            {schema['x-list'].map((field) => (
              <DataTable.Col key={field} source={field} disableSort={!sortable.has(field)}>
                {fieldFor(field, meta)}
              </DataTable.Col>
            ))}
          </DataTable>
        )}
      </List>
    </DatesProvider>
  );
}

/**
 * The lists' pager, its buttons named for screen readers in the user's language (react-admin
 * names them on a desktop, but leaves a phone's compact pager to MUI's English: the name is
 * passed through to MUI's own pager).
 */
function ListPagination() {
  const translate = useTranslate();
  const named = {
    getItemAriaLabel: (type: string) => translate(`ra.navigation.${type === 'previous' ? 'previous' : type}`),
  };
  return <Pagination rowsPerPageOptions={LIST_PAGE_SIZE_OPTIONS} {...(named as object)} />;
}
