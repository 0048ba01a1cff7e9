import MenuBookIcon from '@mui/icons-material/MenuBook';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { APP_VERSION } from '../../shared/constants.js';
import { guidesFor } from '../../shared/manuals.js';
import { downloadGuide } from '../manuals/download.js';
import { session } from '../session/store.js';

/**
 * The footer of spec section 2: the manual of the user's role (the first guide its menu reaches:
 * the requester's, the authoriser's…) as a PDF, the guides inside the console, the year, the copyright.
 */
export default function Footer() {
  const translate = useTranslate();
  const [failed, setFailed] = useState(false);
  const guide = guidesFor(session.profile()?.menu ?? [])[0];
  const download = () => downloadGuide(guide.file).catch(() => setFailed(true));
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
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" startIcon={<MenuBookIcon />} onClick={download} data-testid="manual">
          {translate(`manuals.guides.${guide.id}`)}
        </Button>
        <Button size="small" component={Link} to={`/manuales/${guide.id}`} data-testid="manuals">
          {translate('manuals.title')}
        </Button>
      </Box>
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
