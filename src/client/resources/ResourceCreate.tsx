import { Create } from 'react-admin';
import SchemaForm from './form/SchemaForm.js';
import { ScreenTitle } from './ScreenTitle.js';

export default function ResourceCreate() {
  return (
    <Create redirect="list">
      <ScreenTitle kind="create" />
      <SchemaForm mode="create" />
    </Create>
  );
}
