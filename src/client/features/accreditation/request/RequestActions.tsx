import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import DeleteIcon from '@mui/icons-material/Delete';
import DoneIcon from '@mui/icons-material/Done';
import SaveIcon from '@mui/icons-material/Save';
import SendIcon from '@mui/icons-material/Send';
import { Box, Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ReasonButton } from '../../../components/ReasonButton.js';
import type { RequestFormState } from './useRequestForm.js';

/**
 * The wizard's buttons: delete, cancel, back, save, next (or create); on the last step Finalise
 * (edit mode: saves and returns to the list) or Return (home), and send.
 */
export function RequestActions({ form }: { form: RequestFormState }) {
  const translate = useTranslate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { record, editable, actions, last, missing, uncorrected } = form;
  const busy = Boolean(form.values.busy);
  const sendable = record && editable;
  // The last step's button: Finalise saves and goes back to the list (edit mode), Return goes home.
  const finalising = form.wizard.context.mode === 'edit';
  const unready = missing.length
    ? translate('accreditation.form.missing', { smart_count: missing.length })
    : uncorrected.length
      ? translate('accreditation.form.uncorrected', { smart_count: uncorrected.length })
      : undefined;
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        p: 2,
        pt: 0,
        justifyContent: 'flex-end',
        alignItems: 'center',
      }}
    >
      {form.deletable && (
        <Button
          color="error"
          startIcon={<DeleteIcon />}
          onClick={() => setConfirmDelete(true)}
          disabled={busy}
          sx={{ mr: 'auto' }}
        >
          {translate('ra.action.delete')}
        </Button>
      )}
      <Button component={Link} to={actions.back()}>
        {translate('ra.action.cancel')}
      </Button>
      <Button
        startIcon={<ArrowBackIcon />}
        onClick={() => form.sendWizard({ type: 'BACK' })}
        disabled={!form.wizard.can({ type: 'BACK' })}
      >
        {translate('accreditation.form.back')}
      </Button>
      {sendable && !last && (
        <Button
          startIcon={<SaveIcon />}
          onClick={() => actions.save()}
          disabled={busy}
          data-testid="save-request"
        >
          {translate('ra.action.save')}
        </Button>
      )}
      {!last && (
        <Button
          variant="contained"
          endIcon={<ArrowForwardIcon />}
          onClick={actions.next}
          disabled={busy}
          data-testid="next-step"
        >
          {translate(
            form.isNew && form.step === 'personal'
              ? 'accreditation.form.createAndContinue'
              : 'accreditation.form.next',
          )}
        </Button>
      )}
      {last && finalising && (
        <Button
          variant="outlined"
          startIcon={<DoneIcon />}
          onClick={() => actions.save()}
          disabled={busy}
          data-testid="finish-wizard"
        >
          {translate('accreditation.form.finalise')}
        </Button>
      )}
      {last && sendable && (
        <ReasonButton
          variant="contained"
          startIcon={<SendIcon />}
          onClick={actions.submit}
          disabled={busy}
          reason={unready?.replace(/:\s*$/, '.')}
          data-testid="send-request"
        >
          {translate('accreditation.form.send')}
        </ReasonButton>
      )}
      {last && !finalising && (
        <Button variant="contained" component={Link} to="/dashboard" data-testid="finish-wizard">
          {translate('accreditation.form.return')}
        </Button>
      )}
      <Confirm
        isOpen={confirmDelete}
        title="accreditation.form.deleteTitle"
        content="accreditation.form.deleteConfirm"
        translateOptions={{ number: record?.NumeroSolicitud }}
        confirm="ra.action.delete"
        confirmColor="warning"
        onConfirm={() => {
          setConfirmDelete(false);
          void actions.remove();
        }}
        onClose={() => setConfirmDelete(false)}
      />
    </Box>
  );
}
