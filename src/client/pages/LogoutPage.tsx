import { CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { LOGIN_PATH, signOut } from '../providers/auth.js';

/** /logout: ends the session on the server, forgets it here, then goes to the login page. */
export default function LogoutPage() {
  const translate = useTranslate();
  useEffect(() => {
    signOut().finally(() => window.location.replace(LOGIN_PATH));
  }, []);
  return (
    <Stack alignItems="center" justifyContent="center" spacing={2} sx={{ minHeight: '100vh' }}>
      <CircularProgress />
      <Typography>{translate('shell.signingOut')}</Typography>
    </Stack>
  );
}
