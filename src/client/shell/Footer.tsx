import MenuBookIcon from '@mui/icons-material/MenuBook';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { APP_VERSION } from '../../shared/constants.js';
import { saveBase64 } from '../files.js';
import { apiCall } from '../session/http.js';
import { session } from '../session/store.js';

/** The footer of spec section 2: the manual of the profile's type, the year, the copyright. */
export default function Footer() {
  const translate = useTranslate();
  const [failed, setFailed] = useState(false);
  const type = session.profile()?.current.tipoPerfil;
  const fileName = type === 'requester' ? 'manual-solicitante.pdf' : 'manual-autorizador.pdf';
  const download = async () => {
    try {
      const file = await apiCall<{ fileBase64: string; fileName: string; fileType: string }>(
        'GET',
        `/api/SistemaArchivo/descargar?${new URLSearchParams({ fileName, fileType: 'pdf' })}`,
      );
      saveBase64(file.fileBase64, file.fileName, file.fileType);
    } catch {
      setFailed(true);
    }
  };
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: 1,
        py: 1.5,
        px: 1,
        mt: 2,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Button size="small" startIcon={<MenuBookIcon />} onClick={download} data-testid="manual">
        {translate(type === 'requester' ? 'shell.manualRequester' : 'shell.manualAuthoriser')}
      </Button>
      <Typography variant="caption" color="text.secondary">
        © {new Date().getFullYear()} {translate('shell.copyright')} · {APP_VERSION}
      </Typography>
      <Dialog open={failed} onClose={() => setFailed(false)}>
        <DialogTitle>{translate('shell.infoTitle')}</DialogTitle>
        <DialogContent>{translate('shell.manualFailed')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setFailed(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
