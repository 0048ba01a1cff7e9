import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { helpTarget } from '../../shared/manuals.js';
import { session } from '../session/store.js';

/** The header's help button: the section of the user's guide that explains the screen shown. */
export function HelpButton() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  if (pathname.startsWith('/manuales')) return null;
  const { guide, section } = helpTarget(pathname, session.profile()?.menu ?? []);
  const label = translate('manuals.help');
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        component={Link}
        to={`/manuales/${guide}#${section}`}
        aria-label={label}
        data-testid="help"
        data-target={`${guide}#${section}`}
      >
        <HelpOutlineIcon />
      </IconButton>
    </Tooltip>
  );
}
