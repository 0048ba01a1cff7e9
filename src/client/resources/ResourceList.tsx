import {
  BulkDeleteButton,
  CreateButton,
  DataTable,
  FilterButton,
  List,
  Pagination,
  SearchInput,
  TopToolbar,
} from 'react-admin';
import { LIST_PAGE_SIZE_OPTIONS } from '../../shared/constants.js';
import { useResourceMeta } from '../providers/meta.js';
import ExportButton from './ExportButton.js';
import { fieldFor, filterFor } from './fields.js';

const ListActions = ({ canWrite }: { canWrite: boolean }) => (
  <TopToolbar>
    <FilterButton />
    {canWrite && <CreateButton />}
    <ExportButton />
  </TopToolbar>
);

/** The list screen of any entity: columns, sorts and filters as its schema declares. */
export default function ResourceList() {
  const meta = useResourceMeta();
  const { schema } = meta;
  const props = schema.properties;
  // A read-only screen (the profile's grant, or the entity's own) lists and shows, nothing more.
  const canWrite = meta.access === 'write';
  const sortable = new Set([meta.primaryKey, ...(schema['x-sortable'] ?? [])]);
  const filters = [
    ...(schema['x-search']?.length ? [<SearchInput key="q" source="q" alwaysOn />] : []),
    ...(schema['x-filters'] ?? []).map((field) => filterFor(field, props[field])),
  ];
  return (
    <List
      perPage={meta.perPage}
      sort={schema['x-defaultSort'] ?? { field: meta.primaryKey, order: 'ASC' }}
      filters={filters}
      actions={<ListActions canWrite={canWrite} />}
      pagination={<Pagination rowsPerPageOptions={LIST_PAGE_SIZE_OPTIONS} />}
      exporter={false}
    >
      <DataTable
        rowClick={canWrite ? 'edit' : 'show'}
        bulkActionButtons={canWrite ? <BulkDeleteButton mutationMode="pessimistic" /> : false}
      >
        {schema['x-list'].map((field) => (
          <DataTable.Col key={field} source={field} disableSort={!sortable.has(field)}>
            {fieldFor(field, props[field], props)}
          </DataTable.Col>
        ))}
      </DataTable>
    </List>
  );
}
