import { DeleteButton, Edit, ListButton, ShowButton, TopToolbar, useResourceContext } from 'react-admin';
import { RECORD_ACTIONS } from './extras.js';
import SchemaForm from './form/SchemaForm.js';

const EditActions = () => {
  const Extra = RECORD_ACTIONS[useResourceContext() ?? ''];
  return (
    <TopToolbar>
      {Extra && <Extra />}
      <ListButton />
      <ShowButton />
      <DeleteButton mutationMode="pessimistic" />
    </TopToolbar>
  );
};

export default function ResourceEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" actions={<EditActions />}>
      <SchemaForm mode="edit" />
    </Edit>
  );
}
