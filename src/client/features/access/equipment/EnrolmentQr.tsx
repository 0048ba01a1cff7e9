import QrCodeIcon from '@mui/icons-material/QrCode2';
import { Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { isApiErrorBody } from '../../../../shared/errors.js';
import { formatDateTime } from '../../../format.js';
import { ApiRequestError, apiCall } from '../../../session/http.js';

/** The address a gate app opens from an enrolment QR (a phone's camera app opens it too). */
const enrolmentUrl = (code: string) => `${window.location.origin}/garita/?enrolar=${code}`;

/**
 * The equipment's enrolment QR: a one-time code (single use, valid ten minutes) that a gate app
 * scans and exchanges for the device key; the key itself never appears here.
 */
export default function EnrolmentQr({ equipmentId }: { equipmentId: string | number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [shown, setShown] = useState<{ code: string; expiresAt: string; image: string } | null>(null);

  const make = async () => {
    const answer = await apiCall<{ code: string; expiresAt: string }>(
      'POST',
      `/api/acceso/equipo/${equipmentId}/enrolamiento`,
    ).catch((error: unknown) => {
      // The server's own words when it refused; the connection's message when it could not be reached.
      const known = error instanceof ApiRequestError ? error : undefined;
      notify(
        known && isApiErrorBody(known.body)
          ? known.message
          : (known?.messageKey ?? 'ra.notification.http_error'),
        { type: 'warning' },
      );
      return undefined;
    });
    if (!answer) return;
    const { code, expiresAt } = answer;
    const { toSVG } = await import('bwip-js/browser');
    const svg = toSVG({ bcid: 'qrcode', text: enrolmentUrl(code), scale: 4 });
    setShown({ code, expiresAt, image: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
  };

  return (
    <Box sx={{ mt: 2 }} data-testid="enrolment">
      <Typography variant="subtitle2">{translate('gateApp.enrol.title')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('gateApp.enrol.help')}
      </Typography>
      {shown && (
        <Box sx={{ textAlign: 'center', mt: 1 }}>
          <img
            src={shown.image}
            alt={translate('gateApp.enrol.qrAlt')}
            data-enrolment-code={shown.code}
            style={{ width: 220, maxWidth: '100%', imageRendering: 'pixelated' }}
          />
          <Typography variant="body2">
            {translate('gateApp.enrol.until', {
              // HH:mm as the site's clocks read it.
              time: formatDateTime(shown.expiresAt).slice(11, 16),
            })}
          </Typography>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {translate('gateApp.enrol.code', { code: shown.code })}
          </Typography>
        </Box>
      )}
      <Button size="small" startIcon={<QrCodeIcon />} onClick={make} sx={{ mt: 1 }}>
        {translate(shown ? 'gateApp.enrol.again' : 'gateApp.enrol.make')}
      </Button>
    </Box>
  );
}
