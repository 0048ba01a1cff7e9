import { Alert, AlertTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { NoShow } from './api.js';

/** Who did not board a trip that departed: named, with their seat and company, where the coordinator sees it first. */
export function NoShows({ people, onClose }: { people: NoShow[]; onClose(): void }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.noShows.${key}`, options);
  if (!people.length)
    return (
      <Alert severity="success" onClose={onClose} data-testid="no-shows">
        {text('none')}
      </Alert>
    );
  return (
    <Alert severity="warning" onClose={onClose} data-testid="no-shows">
      <AlertTitle>{text('title', { smart_count: people.length })}</AlertTitle>
      <ul style={{ margin: 0, paddingInlineStart: '1.2em' }}>
        {people.map((p) => (
          <li key={p.IdPersona} data-no-show={p.Documento}>
            {`${text('seat', { seat: p.Asiento })} · ${p.Persona} · ${p.Documento} · ${p.Compania}`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
