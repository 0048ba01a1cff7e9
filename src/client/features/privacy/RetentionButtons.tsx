import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PreviewIcon from '@mui/icons-material/Preview';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { apiCall } from '../../session/http.js';
import { useAction } from './useAction.js';

interface RetentionRun {
  dryRun: boolean;
  people: number;
  classes: Record<string, { anonymised: number; kept: Record<string, number> }>;
}

/**
 * The retention job from its rules' list: a dry run that shows, by data class, whom it would
 * anonymise and whom it keeps and why; and, once seen, the run itself, asked for again.
 */
export default function RetentionButtons() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [run, setRun] = useState<RetentionRun | null>(null);
  const { busy, run: act } = useAction();

  const call = (dryRun: boolean) =>
    act(async () => {
      const result = await apiCall<RetentionRun>(
        'POST',
        `/api/privacidad/conservacion/${dryRun ? 'simular' : 'ejecutar'}`,
      );
      setRun(result);
      if (!dryRun) {
        notify('privacy.retention.done', { type: 'success', messageArgs: { smart_count: result.people } });
        refresh();
      }
    });
  const reasons = (kept: Record<string, number>) =>
    Object.entries(kept)
      .map(([reason, n]) => `${translate(`privacy.retention.reasons.${reason}`, { _: reason })}: ${n}`)
      .join(', ') || '—';

  return (
    <>
      <Button
        size="small"
        startIcon={<PreviewIcon />}
        onClick={() => call(true)}
        disabled={busy}
        className="retention-dry-run"
      >
        {translate('privacy.retention.dryRun')}
      </Button>
      <Dialog open={run !== null} onClose={() => setRun(null)} maxWidth="sm" fullWidth>
        <DialogTitle>
          {translate(run?.dryRun ? 'privacy.retention.dryRunTitle' : 'privacy.retention.runTitle')}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            {translate(run?.dryRun ? 'privacy.retention.wouldGo' : 'privacy.retention.went', {
              smart_count: run?.people ?? 0,
            })}
          </DialogContentText>
          <Table size="small" className="retention-classes">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.retention-rule.fields.ClaseDato')}</TableCell>
                <TableCell align="right">{translate('privacy.retention.anonymised')}</TableCell>
                <TableCell>{translate('privacy.retention.kept')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {Object.entries(run?.classes ?? {}).map(([dataClass, figures]) => (
                <TableRow key={dataClass}>
                  <TableCell>{translate(`enums.dataClass.${dataClass}`)}</TableCell>
                  <TableCell align="right">{figures.anonymised}</TableCell>
                  <TableCell>{reasons(figures.kept)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRun(null)}>{translate('ra.action.close')}</Button>
          {run?.dryRun && run.people > 0 && (
            <Button
              variant="contained"
              color="warning"
              startIcon={<PlayArrowIcon />}
              onClick={() => call(false)}
              disabled={busy}
              className="retention-run"
            >
              {translate('privacy.retention.run')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
