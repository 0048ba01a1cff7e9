import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Alert, Button } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { downloadFile } from '../../../files.js';
import { formatDate } from '../../../format.js';
import type { Item } from '../api.js';

/** The labelled facts a source kept with a line (JSON), in order; none when unreadable. */
function factsOf(detail: string | null | undefined): Array<[string, unknown]> {
  try {
    const parsed: unknown = JSON.parse(detail ?? '{}');
    return parsed && typeof parsed === 'object' ? Object.entries(parsed) : [];
  } catch {
    return [];
  }
}

/** The facts whose values are days (shown as the console shows dates). */
const DAYS = new Set(['date', 'validUntil']);

/**
 * A requirement whose lines a source proved (a passed induction): which source, what its record
 * says (course, date, score, trainer, valid until, record) and its certificate.
 */
export function SourcedFrom({ items }: { items: Item[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const item = items.find((i) => i.Fuente);
  if (!item?.Fuente) return null;
  const facts = factsOf(item.DetalleFuente).map(
    ([key, value]) =>
      `${translate(`accreditation.sources.facts.${key}`, { _: key })}: ${DAYS.has(key) ? formatDate(value) : String(value)}`,
  );
  const link = item.EnlaceFuente;
  const certificate = link ? (
    <Button
      size="small"
      startIcon={<WorkspacePremiumIcon />}
      data-certificate={item.IdSecuencial}
      onClick={() =>
        downloadFile(link, 'certificado.pdf').catch((error: Error) =>
          notify(error.message, { type: 'error' }),
        )
      }
    >
      {translate('accreditation.sources.certificate')}
    </Button>
  ) : undefined;
  return (
    <Alert
      severity="success"
      variant="outlined"
      className="line-sourced"
      data-source={item.Fuente}
      action={certificate}
      sx={{ mb: 1, py: 0 }}
    >
      {translate('accreditation.sources.provenBy', {
        source: translate(`accreditation.sources.names.${item.Fuente}`, { _: item.Fuente }),
      })}
      {facts.length > 0 && ` ${facts.join(' · ')}`}
    </Alert>
  );
}
