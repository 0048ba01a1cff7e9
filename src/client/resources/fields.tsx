import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  DateInput,
  FunctionField,
  NumberInput,
  ReferenceArrayField,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
  TextField,
  TextInput,
} from 'react-admin';
import type { PropertySchema } from '../../shared/schema/types.js';
import { formatDate, formatDateTime } from '../format.js';

export function enumChoices(prop: PropertySchema) {
  return (prop.enum ?? []).map((value) => ({ id: value, name: `enums.${prop['x-enum']}.${value}` }));
}

/** The read-only view of one property, for lists and show pages. */
export function fieldFor(source: string, prop: PropertySchema): ReactElement {
  const ref = prop['x-ref'];
  if (ref && prop.type === 'array')
    return <ReferenceArrayField source={source} reference={ref.resource} emptyText="—" />;
  if (ref) return <ReferenceField source={source} reference={ref.resource} link="show" emptyText="—" />;
  if (prop.enum) return <SelectField source={source} choices={enumChoices(prop)} emptyText="—" />;
  if (prop.format === 'date') return <FunctionField source={source} render={(r) => formatDate(r[source])} />;
  if (prop.format === 'date-time')
    return <FunctionField source={source} render={(r) => formatDateTime(r[source])} />;
  return <TextField source={source} emptyText="—" />;
}

/** The list filter input for one property. */
export function filterFor(source: string, prop: PropertySchema): ReactElement {
  const ref = prop['x-ref'];
  if (ref) {
    return (
      <ReferenceInput key={source} source={source} reference={ref.resource}>
        <AutocompleteInput />
      </ReferenceInput>
    );
  }
  if (prop.enum) return <SelectInput key={source} source={source} choices={enumChoices(prop)} />;
  if (prop.format === 'date') return <DateInput key={source} source={source} />;
  if (prop.type !== 'string') return <NumberInput key={source} source={source} />;
  return <TextInput key={source} source={source} />;
}
