import BlockIcon from '@mui/icons-material/Block';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { useConsoleTitle } from '../resources/ScreenTitle.js';

function Page({
  icon,
  title,
  text,
  children,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  useConsoleTitle(title);
  return (
    <Box
      sx={{ minHeight: '70vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 3 }}
      data-testid="error-page"
    >
      <Stack spacing={2} alignItems="center" sx={{ maxWidth: 560, textAlign: 'center' }}>
        {icon}
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary">{text}</Typography>
        {children}
      </Stack>
    </Box>
  );
}

/** The 404 page (and /error/error-v1): in Spanish first, as the spec has it. */
export function NotFoundPage() {
  const translate = useTranslate();
  return (
    <Page
      icon={<SearchOffIcon sx={{ fontSize: 72 }} color="primary" />}
      title={translate('errors.notFound.title')}
      text={translate('errors.notFound.text')}
    >
      <Button component={Link} to="/" variant="contained">
        {translate('errors.home')}
      </Button>
    </Page>
  );
}

/** /error/error-v1 to error-v6: v1 is the 404; v2 to v6 the generic pages, each in its own words. */
export function ErrorVariantPage() {
  const translate = useTranslate();
  const { variant } = useParams();
  const n = Number(/^error-v([1-6])$/.exec(variant ?? '')?.[1] ?? 1);
  if (n === 1) return <NotFoundPage />;
  return (
    <Page
      icon={<ErrorOutlineIcon sx={{ fontSize: 72 }} color="error" />}
      title={translate(`errors.v${n}.title`)}
      text={translate(`errors.v${n}.text`)}
    >
      <Button component={Link} to="/" variant="contained">
        {translate('errors.home')}
      </Button>
    </Page>
  );
}

/** The no-permission page of spec section 2. */
export function NoPermissionPage() {
  const translate = useTranslate();
  return (
    <Page
      icon={<BlockIcon sx={{ fontSize: 72 }} color="warning" />}
      title={translate('errors.noPermission.title')}
      text={translate('errors.noPermission.text')}
    >
      <Stack direction="row" spacing={2}>
        <Button component={Link} to="/logout" variant="outlined">
          {translate('ra.auth.logout')}
        </Button>
        <Button component={Link} to="/auth/login" variant="contained">
          {translate('errors.signInAgain')}
        </Button>
      </Stack>
    </Page>
  );
}
