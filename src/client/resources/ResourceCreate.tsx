import { Create } from 'react-admin';
import SchemaForm from './form/SchemaForm.js';

export default function ResourceCreate() {
  return (
    <Create redirect="list">
      <SchemaForm mode="create" />
    </Create>
  );
}
