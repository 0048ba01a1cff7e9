import { Box, Divider, Typography } from '@mui/material';
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
import { AUDIT_FIELDS, type ResourceMeta } from '../../shared/schema/types.js';
import { formatDateTime } from '../format.js';
import { useRecordActions, useRecordPanel } from '../providers/extensions.js';
import { useResourceMeta } from '../providers/meta.js';
import { fieldFor } from './fields.js';
import History from './History.js';
import { ScreenTitle } from './ScreenTitle.js';

/**
 * The record's buttons: a feature's extra actions for whoever may change the record, or, on records
 * the server alone writes (a webhook delivery), for whoever reads them: the action then asks itself.
 */
const ShowActions = ({
  canWrite,
  resource,
  serverWritten,
}: {
  canWrite: boolean;
  resource: string;
  serverWritten: boolean;
}) => {
  const Extra = useRecordActions(resource);
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {(canWrite || serverWritten) && Extra && <Extra />}
      <ListButton />
      {canWrite && <EditButton />}
      {canWrite && <DeleteButton mutationMode="pessimistic" />}
    </TopToolbar>
  );
};

const grid = {
  '& .RaSimpleShowLayout-stack': {
    display: 'grid',
    gridTemplateColumns: {
      xs: 'minmax(0, 1fr)',
      sm: 'repeat(2, minmax(0, 1fr))',
      lg: 'repeat(3, minmax(0, 1fr))',
    },
    columnGap: 2,
    rowGap: 1.5,
    // Long values without spaces (an audit row's JSON) break rather than widen the page.
    overflowWrap: 'anywhere',
  },
};

/** The record's fields, in the schema's sections when it has them: those in none first, untitled. */
function sectionsOf(meta: ResourceMeta): Array<{ name?: string; fields: string[] }> {
  const all = Object.keys(meta.schema.properties);
  const sections = meta.schema['x-sections'] ?? [];
  const placed = new Set(sections.flatMap((section) => section.fields));
  const rest = all.filter((field) => !placed.has(field));
  return [...(rest.length ? [{ fields: rest }] : []), ...sections];
}

/** Every field of a record, then who created and last changed it. */
export default function ResourceShow() {
  const meta = useResourceMeta();
  const { schema, access } = meta;
  const translate = useTranslate();
  const Panel = useRecordPanel(meta.name);
  return (
    <Show
      actions={
        <ShowActions
          canWrite={access === 'write'}
          resource={meta.name}
          serverWritten={meta.schema['x-readOnly'] === true}
        />
      }
    >
      <ScreenTitle kind="show" />
      {sectionsOf(meta).map((section) => (
        <Box
          component="section"
          key={section.name ?? ''}
          aria-labelledby={section.name && `section-${section.name}`}
        >
          {section.name && (
            <Typography
              id={`section-${section.name}`}
              variant="h6"
              component="h2"
              sx={{ fontSize: '1.05rem', mx: 2, mt: 2, pb: 0.5, borderBottom: 1, borderColor: 'divider' }}
            >
              {translate(`resources.${meta.name}.sections.${section.name}`)}
            </Typography>
          )}
          <SimpleShowLayout spacing={0} sx={grid}>
            {section.fields.map((field) => (
              <Labeled key={field} source={field}>
                {fieldFor(field, meta)}
              </Labeled>
            ))}
          </SimpleShowLayout>
        </Box>
      ))}
      {Panel && <Panel />}
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
