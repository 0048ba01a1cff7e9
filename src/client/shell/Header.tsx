import CheckIcon from '@mui/icons-material/Check';
import LockPersonIcon from '@mui/icons-material/LockPerson';
import LogoutIcon from '@mui/icons-material/Logout';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  Box,
  Divider,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  MenuItem,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { AppBar, LoadingIndicator, UserMenu, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { SessionAnswer } from '../../../workflows/login.machine.js';
import { HEADER_TRUNCATION } from '../../shared/constants.js';
import { LanguageMenu } from '../components/LanguageMenu.js';
import { LOADING_LABEL_ID } from '../consoleTheme.js';
import { isLanguage } from '../language.js';
import { HelpButton } from '../manuals/HelpButton.js';
import { keepSession } from '../pages/login/actors.js';
import { apiCall, RELOAD_DELAY_MS } from '../session/http.js';
import { type DivisionChoice, session } from '../session/store.js';
import { truncate } from './truncate.js';

const later = (path: string) => setTimeout(() => window.location.assign(path), RELOAD_DELAY_MS);

/** Switches to another profile or division: a new session, then the page reloads after 400 ms. */
async function switchTo(choice: DivisionChoice): Promise<void> {
  const auth = session.auth();
  const profile = session.profile();
  if (!auth || !profile) return;
  const chosen = await apiCall<SessionAnswer>('POST', '/api/usuario/refreshTokenbyperfil', {
    idPerfil: choice.IdPerfil,
    idDivision: choice.IdDivision,
    tokenClient: '',
  });
  await keepSession({ username: auth.username, fullName: auth.fullName }, chosen, {
    profiles: profile.profiles,
    divisions: profile.divisions,
    lockSeconds: profile.lockSeconds,
  });
  later('/dashboard');
}

function ProfileMenu() {
  const translate = useTranslate();
  const notify = useNotify();
  const auth = session.auth();
  const profile = session.profile();
  if (!auth || !profile) return null;
  const { current, divisions, profiles } = profile;
  const perfilName = (id: number) => profiles.find((p) => p.IdPerfil === id)?.Perfil ?? '';
  // The button reads the user's name: its accessible name says the same, and what it opens.
  return (
    <UserMenu label={`${auth.fullName} · ${translate('ra.auth.user_menu')}`}>
      <Box sx={{ px: 2, py: 1, maxWidth: 360 }} data-testid="user-summary">
        <Typography fontWeight="bold">{truncate(auth.fullName, HEADER_TRUNCATION.username)}</Typography>
        <Typography variant="body2">{current.Perfil}</Typography>
        {current.Compania && (
          <Typography variant="body2" color="text.secondary">
            {truncate(current.Compania, HEADER_TRUNCATION.company)}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {current.Cliente}
        </Typography>
        {current.RolAcreditacion && (
          <Typography variant="caption" color="secondary">
            {truncate(current.RolAcreditacion, HEADER_TRUNCATION.accreditationRole)}
          </Typography>
        )}
      </Box>
      <Divider />
      <ListSubheader sx={{ lineHeight: 2.5 }}>{translate('shell.switchProfile')}</ListSubheader>
      {divisions.map((d) => {
        const isCurrent = d.IdDivision === current.IdDivision && d.IdPerfil === current.IdPerfil;
        return (
          <MenuItem
            key={`${d.IdPerfil}-${d.IdDivision}`}
            disabled={isCurrent}
            onClick={() => switchTo(d).catch(() => notify('shell.switchFailed', { type: 'error' }))}
            data-division={d.Division}
          >
            <ListItemIcon>
              {isCurrent ? <CheckIcon fontSize="small" /> : <SwapHorizIcon fontSize="small" />}
            </ListItemIcon>
            <ListItemText primary={d.Division} secondary={perfilName(d.IdPerfil)} />
          </MenuItem>
        );
      })}
      <Divider />
      <MenuItem onClick={() => later('/seguridad/usuarioLogin')}>
        <ListItemIcon>
          <LockPersonIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={translate('shell.security')} />
      </MenuItem>
      <MenuItem component={Link} to="/logout">
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={translate('ra.auth.logout')} />
      </MenuItem>
    </UserMenu>
  );
}

/** The language menu (its icon alone on a phone) and the refresh button, whose spinner says what it is. */
function Toolbar() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <>
      <HelpButton />
      <LanguageMenu language={isLanguage(locale) ? locale : 'es'} onChange={setLocale} compact={narrow} />
      <LoadingIndicator {...({ 'aria-label': translate('ra.page.loading') } as object)} />
      <span id={LOADING_LABEL_ID} hidden>
        {translate('ra.page.loading')}
      </span>
    </>
  );
}

/** The header of spec section 2: logo to /, client and division in the centre, user and language menus. */
export default function Header() {
  const translate = useTranslate();
  const current = session.profile()?.current;
  return (
    <AppBar color="primary" userMenu={<ProfileMenu />} toolbar={<Toolbar />}>
      <Stack direction="row" alignItems="center" sx={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
        <Box
          component={Link}
          to="/"
          aria-label={translate('app.title')}
          sx={{ display: 'flex', alignItems: 'center', color: 'inherit', textDecoration: 'none', gap: 1 }}
        >
          <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="6" fill="#ffffff" opacity="0.15" />
            <path d="M7 24l9-16 9 16z" fill="#f4a261" />
          </svg>
          <Typography variant="h6" component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            {translate('app.title')}
          </Typography>
        </Box>
        <Typography
          sx={{ flex: 1, minWidth: 0, textAlign: 'center', px: 1, fontSize: { xs: '0.85rem', sm: '1rem' } }}
          noWrap
          data-testid="client-division"
        >
          {current ? `${current.Cliente} · ${current.Division}` : ''}
        </Typography>
      </Stack>
    </AppBar>
  );
}
