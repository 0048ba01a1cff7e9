import {
  Alert,
  Box,
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Tab,
  Tabs,
  type Theme,
  useMediaQuery,
} from '@mui/material';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { PasswordField } from '../components/PasswordField.js';
import { useConsoleTitle } from '../resources/ScreenTitle.js';
import { ApiRequestError, apiCall } from '../session/http.js';
import { NewPasswordFields } from './login/Steps.js';
import { SecondFactor } from './SecondFactor.js';
import { type OwnRecord, SecurityData } from './SecurityData.js';

interface Policy {
  longitudClave: number;
  nivelSeguridadClave: string;
}

/**
 * /seguridad/usuarioLogin: the user's own security page (spec section 2), vertical tabs. Data
 * shows the user's record and saves the fields its settings let the user change; Password changes
 * the password with the previous one, the new one and its confirmation; Second factor turns the
 * authenticator app on and off.
 */
export default function SecurityPage() {
  const translate = useTranslate();
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [tab, setTab] = useState(0);
  const [record, setRecord] = useState<OwnRecord>();
  const [policy, setPolicy] = useState<Policy>({ longitudClave: 6, nivelSeguridadClave: 'A' });
  const [failed, setFailed] = useState(false);
  const [previous, setPrevious] = useState('');
  const [next, setNext] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const load = useCallback(() => {
    apiCall<OwnRecord>('PUT', '/api/SeguridadusuarioLogin/obtener', {})
      .then(setRecord)
      .catch(() => setFailed(true));
    apiCall<Policy>('GET', '/api/SeguridadUsuarioPerfil/configuracionByUsuario')
      .then(setPolicy)
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);

  const change = async (event: FormEvent) => {
    event.preventDefault();
    if (!next) return;
    setProblem(undefined);
    try {
      const result = await apiCall<{ id: number }>('POST', '/api/SeguridadusuarioClave/cambiarClave', {
        ClaveAnterior: previous,
        Clave: next,
      });
      if (result.id === 2) return setProblem(translate('password.mustDiffer'));
      setDone(true);
      setPrevious('');
      setNext(undefined);
      setFormKey((k) => k + 1);
    } catch (error) {
      const body =
        error instanceof ApiRequestError
          ? (error.body as { errors?: Record<string, { message: string }> })
          : undefined;
      const field = body?.errors && Object.values(body.errors)[0];
      setProblem(field?.message ?? (error as Error).message);
    }
  };

  useConsoleTitle(translate('shell.security'));
  return (
    <Card sx={{ mt: 2, display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, minHeight: 360 }}>
      <Title title={translate('shell.security')} />
      <Tabs
        // Vertical tabs (spec section 2); above the form on a phone, where the width is the form's.
        orientation={narrow ? 'horizontal' : 'vertical'}
        value={tab}
        onChange={(_e, value) => setTab(value)}
        sx={{ [narrow ? 'borderBottom' : 'borderRight']: 1, borderColor: 'divider', minWidth: 160 }}
      >
        <Tab label={translate('security.data')} id="tab-data" />
        <Tab label={translate('security.password')} id="tab-password" />
        <Tab label={translate('security.secondFactor')} id="tab-second-factor" />
      </Tabs>
      <Box sx={{ p: 3, flex: 1, maxWidth: 520 }}>
        {tab === 0 && record && <SecurityData record={record} onSaved={setRecord} />}
        {tab === 2 && <SecondFactor />}
        {tab === 1 && (
          <Stack component="form" spacing={2} onSubmit={change} key={formKey} noValidate>
            {problem && <Alert severity="error">{problem}</Alert>}
            <PasswordField
              id="previous-password"
              label={translate('security.previousPassword')}
              value={previous}
              onChange={(e) => setPrevious(e.target.value)}
              required
              error={previous === '' && problem !== undefined}
              fullWidth
            />
            <NewPasswordFields
              level={policy.nivelSeguridadClave}
              minLength={policy.longitudClave}
              onChange={setNext}
            />
            <Button type="submit" variant="contained" disabled={!previous || !next}>
              {translate('login.savePassword')}
            </Button>
          </Stack>
        )}
      </Box>
      <Dialog open={done} onClose={() => setDone(false)}>
        <DialogTitle>{translate('security.successTitle')}</DialogTitle>
        <DialogContent>{translate('password.changed')}</DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              setDone(false);
              setTab(0);
              load();
            }}
          >
            {translate('ra.action.close')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={failed} onClose={() => setFailed(false)}>
        <DialogTitle>{translate('shell.infoTitle')}</DialogTitle>
        <DialogContent>{translate('security.loadFailed')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setFailed(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
