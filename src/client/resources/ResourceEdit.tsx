import { DeleteButton, Edit, ListButton, ShowButton, TopToolbar, useResourceContext } from 'react-admin';
import { useRecordActions, useRecordPanel } from '../providers/extensions.js';
import SchemaForm from './form/SchemaForm.js';
import { ScreenTitle } from './ScreenTitle.js';

const EditActions = () => {
  const Extra = useRecordActions(useResourceContext() ?? '');
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {Extra && <Extra />}
      <ListButton />
      <ShowButton />
      <DeleteButton mutationMode="pessimistic" />
    </TopToolbar>
  );
};

export default function ResourceEdit() {
  const Panel = useRecordPanel(useResourceContext() ?? '');
  return (
    <Edit mutationMode="pessimistic" redirect="list" actions={<EditActions />}>
      <ScreenTitle kind="edit" />
      <SchemaForm mode="edit" />
      {Panel && <Panel />}
    </Edit>
  );
}
