import { Divider, Typography } from '@mui/material';
import {
  DeleteButton,
  EditButton,
  FunctionField,
  Labeled,
  ListButton,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { AUDIT_FIELDS } from '../../shared/schema/types.js';
import { formatDateTime } from '../format.js';
import { useResourceMeta } from '../providers/meta.js';
import { RECORD_ACTIONS } from './extras.js';
import { fieldFor } from './fields.js';
import History from './History.js';

const ShowActions = ({ canWrite, resource }: { canWrite: boolean; resource: string }) => {
  const Extra = RECORD_ACTIONS[resource];
  return (
    <TopToolbar>
      {canWrite && Extra && <Extra />}
      <ListButton />
      {canWrite && <EditButton />}
      {canWrite && <DeleteButton mutationMode="pessimistic" />}
    </TopToolbar>
  );
};

const grid = {
  '& .RaSimpleShowLayout-stack': {
    display: 'grid',
    gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
    columnGap: 2,
    rowGap: 1.5,
  },
};

/** Every field of a record, then who created and last changed it. */
export default function ResourceShow() {
  const meta = useResourceMeta();
  const { schema, access } = meta;
  const translate = useTranslate();
  return (
    <Show actions={<ShowActions canWrite={access === 'write'} resource={meta.name} />}>
      <SimpleShowLayout spacing={0} sx={grid}>
        {Object.entries(schema.properties).map(([field, prop]) => (
          <Labeled key={field} source={field}>
            {fieldFor(field, prop, schema.properties)}
          </Labeled>
        ))}
      </SimpleShowLayout>
      <Divider sx={{ mx: 2 }}>
        <Typography variant="overline">{translate('app.audit.title')}</Typography>
      </Divider>
      <SimpleShowLayout spacing={0} sx={grid}>
        {AUDIT_FIELDS.map((field) => (
          <Labeled key={field} label={`app.audit.${field}`}>
            {field.startsWith('Fecha') ? (
              <FunctionField source={field} render={(r) => formatDateTime(r[field]) || '—'} />
            ) : (
              <TextField source={field} emptyText="—" />
            )}
          </Labeled>
        ))}
      </SimpleShowLayout>
      {!schema['x-readOnly'] && <History meta={meta} />}
    </Show>
  );
}
