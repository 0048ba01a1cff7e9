import DeleteIcon from '@mui/icons-material/Delete';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { requestNumber } from '../../../../shared/accreditation.js';
import { SelectionButton } from '../../../components/SelectionButton.js';
import type { Removed } from '../api.js';

/**
 * The requester's bulk delete of the requests ticked (spec section 4), on every requests screen
 * that deletes: asked first, then one call of the kind's `eliminarmasivo`; the server deletes the
 * incomplete ones and names each other one with its reason ("Some records could not be deleted").
 * Pressed with none ticked it says "Select a row".
 */
export function DeleteSelected({
  selected,
  onSelected,
  remove,
  refresh,
}: {
  selected: number[];
  onSelected(ids: number[]): void;
  /** The kind's bulk delete. */
  remove(ids: number[]): Promise<Removed>;
  /** The queries the screen reloads once done. */
  refresh: readonly unknown[];
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const confirmed = async () => {
    setAsking(false);
    try {
      const done = await remove(selected);
      onSelected([]);
      await client.invalidateQueries({ queryKey: refresh });
      if (done.Rechazadas.length)
        notify(
          done.message ??
            translate('accreditation.refusals.someNotDeleted', {
              list: done.Rechazadas.map(
                (r) => `${requestNumber(r.IdSolicitud)} (${translate(r.messageKey)})`,
              ).join(', '),
            }),
          { type: 'warning' },
        );
      else
        notify('accreditation.screens.deletedMany', {
          type: 'success',
          messageArgs: { count: done.Eliminadas.length },
        });
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    }
  };
  return (
    <>
      <SelectionButton
        size="small"
        color="error"
        startIcon={<DeleteIcon />}
        selected={selected.length}
        onClick={() => setAsking(true)}
        data-testid="delete-selected"
      >
        {translate('accreditation.screens.deleteSelected', { count: selected.length })}
      </SelectionButton>
      <Confirm
        isOpen={asking}
        title="accreditation.screens.deleteSelectedTitle"
        content="accreditation.screens.deleteSelectedConfirm"
        translateOptions={{ count: selected.length }}
        confirm="ra.action.delete"
        confirmColor="warning"
        onConfirm={confirmed}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
