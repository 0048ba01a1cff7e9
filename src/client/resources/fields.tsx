import LockOutlined from '@mui/icons-material/LockOutlined';
import { Avatar, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  FunctionField,
  NumberInput,
  ReferenceArrayField,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
  SingleFieldList,
  TextField,
  TextInput,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { isSensitive, maskedOf } from '../../shared/data-classes.js';
import type { EntitySchema, PropertySchema, ResourceMeta } from '../../shared/schema/types.js';
import { formatDate, formatDateTime } from '../format.js';
import { useReach } from '../providers/meta.js';
import { DateFilterInput } from './form/dates.js';
import { unreadableLabel } from './scopeLabel.js';
import { PAGE_FORMS, screenProperty, useScreenChoices } from './screens.js';

export function enumChoices(prop: PropertySchema) {
  return (prop.enum ?? []).map((value) => ({ id: value, name: `enums.${prop['x-enum']}.${value}` }));
}

/** A record's picture (x-widget image), small. */
function PhotoField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translate = useTranslate();
  const value = record?.[source];
  if (typeof value !== 'string' || !value.startsWith('data:image/')) return <>—</>;
  return (
    <Avatar
      variant="rounded"
      src={value}
      alt={translate(`resources.${resource}.fields.${source}`, { _: source })}
      sx={{ width: 90, height: 96 }}
    />
  );
}

/** A screen's name in the user's language (a field rule's form, an audit row's screen). */
function ResourceNameField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = record?.[source];
  if (typeof value !== 'string' || !value) return <>—</>;
  const page = PAGE_FORMS[value];
  if (page) return <>{translate(page.labelKey)}</>;
  return <>{translate(`resources.${value}.name`, { smart_count: 1, _: value })}</>;
}

/** A field's label in the user's language, on the screen the record's `resource` property names. */
function FieldNameField({ source, resource }: { source: string; resource: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = record?.[source];
  if (typeof value !== 'string' || !value) return <>—</>;
  const form = String(record?.[resource]);
  const screen = PAGE_FORMS[form]?.resource ?? form;
  return <>{translate(`resources.${screen}.fields.${value}`, { _: value })}</>;
}

/** The list filter of a screen name: the screens of the console, by their names. */
function ResourceFilterInput({ source }: { source: string; alwaysOn?: boolean }) {
  const choices = useScreenChoices();
  return <SelectInput source={source} choices={choices} translateChoice={false} />;
}

/**
 * A reference in words. It links to the record's page only when that screen is in the profile's
 * menu; a record the profile reads only for its labels shows its label; one it may not read at
 * all (its own client or division) shows the name the session knows, never a refusal.
 */
function ReferenceValue({
  source,
  target,
  schema,
  many,
  linked,
}: {
  source: string;
  target: string;
  schema: EntitySchema;
  many: boolean;
  linked: boolean;
  label?: string;
}) {
  const reach = useReach(target);
  const record = useRecordContext();
  if (reach === 'none')
    return (
      <Typography component="span" variant="body2">
        {unreadableLabel(schema, source, record?.[source])}
      </Typography>
    );
  const link = reach === 'screen' && linked ? 'show' : false;
  if (many)
    return (
      <ReferenceArrayField source={source} reference={target}>
        <SingleFieldList linkType={link} empty={<>—</>} />
      </ReferenceArrayField>
    );
  return <ReferenceField source={source} reference={target} link={link} emptyText="—" />;
}

/** A value the profile may not read (health data): said to be protected, not shown empty. */
function Protected({ source, children }: { source: string; label?: string; children: ReactElement }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!maskedOf(record).includes(source)) return children;
  return (
    <Typography
      component="span"
      variant="body2"
      color="text.secondary"
      className="protected-value"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
    >
      <LockOutlined fontSize="inherit" aria-hidden />
      {translate('app.privacy.masked')}
    </Typography>
  );
}

/**
 * The read-only view of one property of a resource, for lists and show pages; `link: false`
 * where the field sits inside a link already (a record's card). A sensitive field (health, criminal
 * record) the profile may not read says so.
 */
export function fieldFor(source: string, meta: ResourceMeta, options: { link?: boolean } = {}): ReactElement {
  const field = plainFieldFor(source, meta, options);
  return isSensitive(meta.schema.properties[source]?.['x-dataClass']) ? (
    <Protected source={source}>{field}</Protected>
  ) : (
    field
  );
}

function plainFieldFor(source: string, meta: ResourceMeta, options: { link?: boolean }): ReactElement {
  const properties = meta.schema.properties;
  const prop = properties[source];
  if (prop['x-widget'] === 'resource') return <ResourceNameField source={source} />;
  if (prop['x-widget'] === 'image') return <PhotoField source={source} />;
  const screen = prop['x-widget'] === 'field' ? screenProperty(properties) : undefined;
  if (screen) return <FieldNameField source={source} resource={screen} />;
  const ref = prop['x-ref'];
  if (ref)
    return (
      <ReferenceValue
        source={source}
        target={ref.resource}
        schema={meta.schema}
        many={prop.type === 'array'}
        linked={options.link !== false}
      />
    );
  if (prop.enum) return <SelectField source={source} choices={enumChoices(prop)} emptyText="—" />;
  if (prop.format === 'date') return <FunctionField source={source} render={(r) => formatDate(r[source])} />;
  if (prop.format === 'date-time')
    return <FunctionField source={source} render={(r) => formatDateTime(r[source])} />;
  return <TextField source={source} emptyText="—" />;
}

/** The list filter input for one property. */
/** "Fecha desde", "Fecha hasta": the label of a bound on a field, in the user's language. */
function BoundLabel({ source, bound }: { source: string; bound: 'gte' | 'lte' }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const field = translate(`resources.${resource}.fields.${source}`, { _: source });
  return <>{translate(bound === 'gte' ? 'forms.rangeFrom' : 'forms.rangeTo', { field })}</>;
}

function CompanyLabel() {
  const translate = useTranslate();
  return <>{translate('resources.company.name', { smart_count: 1 })}</>;
}

/**
 * The list filters of a field: a date is bounded from and to (`Fecha_gte`, `Fecha_lte`, the
 * same day for one day); any other field is matched as it is.
 */
export function filtersFor(source: string, prop: PropertySchema): ReactElement[] {
  if (prop.format !== 'date') return [filterFor(source, prop)];
  return (['gte', 'lte'] as const).map((bound) => (
    <DateFilterInput
      key={`${source}_${bound}`}
      source={`${source}_${bound}`}
      label={<BoundLabel source={source} bound={bound} />}
    />
  ));
}

/** The filter by company of a list whose records belong to one through a reference (x-companyFilter). */
export function companyFilter(): ReactElement {
  const label = <CompanyLabel />;
  return (
    <ReferenceInput key="IdCompania" source="IdCompania" reference="company" label={label}>
      <AutocompleteInput label={label} sx={{ width: { xs: '100%', sm: 420 } }} />
    </ReferenceInput>
  );
}

function filterFor(source: string, prop: PropertySchema): ReactElement {
  if (prop['x-widget'] === 'resource') return <ResourceFilterInput key={source} source={source} />;
  const ref = prop['x-ref'];
  if (ref) {
    return (
      <ReferenceInput key={source} source={source} reference={ref.resource}>
        {/* Wide enough to read a chosen name whole (a company's); the phone's width at most. */}
        <AutocompleteInput sx={{ width: { xs: '100%', sm: 420 } }} />
      </ReferenceInput>
    );
  }
  if (prop.enum) return <SelectInput key={source} source={source} choices={enumChoices(prop)} />;
  if (prop.format === 'date') return <DateFilterInput key={source} source={source} />;
  if (prop.type !== 'string') return <NumberInput key={source} source={source} />;
  return <TextInput key={source} source={source} />;
}
