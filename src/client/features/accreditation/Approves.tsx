import { Alert, LinearProgress } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { accreditationApi, KIND_OF_SEGMENT } from './api.js';

/**
 * An authoriser's screen of one kind (workers, vehicles, visits) opens only for a user named
 * approver of that kind in the session's division; another (an approver of workers' health only,
 * say) is told so instead of being refused by every call of the screen.
 */
export function Approves({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const entity = KIND_OF_SEGMENT[useParams().kind ?? 'persona'] ?? 'T';
  const rows = useQuery({ queryKey: ['accreditation', 'approves'], queryFn: accreditationApi.approverRows });
  const approves = rows.data?.some((row) => row.IdEntidad === entity);
  if (rows.isPending) return <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />;
  if (rows.isSuccess && !approves)
    return <NotApprover kind={translate(`accreditation.entities.${entity}`)} />;
  return <>{children}</>;
}

function NotApprover({ kind }: { kind: string }) {
  const translate = useTranslate();
  useConsoleTitle(kind);
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="not-approver">
      {translate('accreditation.screens.notApprover', { kind: kind.toLocaleLowerCase() })}
    </Alert>
  );
}
