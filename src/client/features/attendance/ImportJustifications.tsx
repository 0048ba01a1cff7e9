import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { activeCompanies } from '../../session/records.js';
import { attendanceApi } from './api.js';
import { JustificationPick } from './JustificationPick.js';

/**
 * Imports a file of one justification for people of one company (spec section 5: both are
 * required): the template to fill, the company, the justification and the .xlsx. The server checks
 * every row as a single entry and keeps all of them or none, naming each row's problem.
 */
export function ImportJustifications() {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.justify.${key}`, options);
  const [open, setOpen] = useState(false);
  const [company, setCompany] = useState<number | ''>('');
  const [justification, setJustification] = useState<number | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const companies = useQuery({
    queryKey: ['attendance-import-companies'],
    queryFn: activeCompanies,
    enabled: open,
  });
  const run = useMutation({
    mutationFn: () =>
      attendanceApi.importFile(company || undefined, justification || undefined, file as File),
    onSuccess: async (done) => {
      notify('attendance.justify.imported', { type: 'success', messageArgs: { count: done.importadas } });
      setOpen(false);
      setFile(null);
      await client.invalidateQueries({ queryKey: ['attendance-period'] });
    },
  });
  return (
    <>
      <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)}>
        {text('import')}
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="import-title">
          <DialogTitle id="import-title">{text('import')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }} data-testid="justification-import">
              <Link
                component="button"
                type="button"
                onClick={() => attendanceApi.template()}
                sx={{ alignSelf: 'start' }}
              >
                {text('template')}
              </Link>
              <Pick
                id="import-company"
                label={translate('attendance.period.company')}
                value={company}
                options={(companies.data ?? []).map((c) => ({ value: c.IdCompania, label: c.Compania }))}
                onChange={setCompany}
                width="100%"
                required
              />
              <JustificationPick
                id="import-justification"
                value={justification}
                onChange={setJustification}
              />
              <Button variant="outlined" component="label" sx={{ alignSelf: 'start' }}>
                {text('file')}
                <input
                  hidden
                  type="file"
                  accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  data-testid="justification-file"
                  onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                />
              </Button>
              {file && <Typography variant="body2">{file.name}</Typography>}
              <Refusal error={run.error} testId="justification-import-refusal" />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
            <Button
              variant="contained"
              disabled={run.isPending || !file}
              onClick={() => {
                run.reset();
                run.mutate();
              }}
              data-testid="justification-import-send"
            >
              {text('import')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
