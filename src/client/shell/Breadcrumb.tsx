import { Breadcrumbs, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { session } from '../session/store.js';
import { menuPath, tagText } from './menuTree.js';

/** The breadcrumb title built from the menu path of the current screen (spec section 2). */
export default function Breadcrumb() {
  const translate = useTranslate();
  const location = useLocation();
  const path = menuPath(session.profile()?.menu ?? [], location.pathname);
  const home = translate('app.menu.home');
  const trail = path.length
    ? path.map((item) => tagText(translate, item.Tag))
    : location.pathname.startsWith('/dashboard')
      ? [home]
      : [];
  if (!trail.length) return null;
  return (
    <Breadcrumbs
      aria-label={translate('shell.breadcrumb')}
      sx={{ mt: 1.5, mb: 0.5 }}
      data-testid="breadcrumb"
    >
      {trail.map((text, i) => (
        <Typography
          key={text}
          variant="body2"
          color={i === trail.length - 1 ? 'text.primary' : 'text.secondary'}
        >
          {text}
        </Typography>
      ))}
    </Breadcrumbs>
  );
}
