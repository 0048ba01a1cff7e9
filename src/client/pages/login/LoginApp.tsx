import { en, es } from 'virtual:login-locales';
import { CssBaseline } from '@mui/material';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Language } from '../../../shared/constants.js';
import { TranslateProvider, translator } from '../../i18n/translate.js';
import { saveLanguage } from '../../language.js';
import { LOGIN_PATH } from '../../paths.js';
import { setLanguageSource } from '../../session/http.js';
import { baseTheme } from '../../theme.js';
import LoginPage from './LoginPage.js';

const theme = createTheme(baseTheme);
const MESSAGES = { es, en };

/**
 * The sign-in page on its own: React and MUI without the console (react-admin, the screens), so
 * the first page loads quickly; signing in loads the console with a full page load.
 */
function LoginApp({ initial }: { initial: Language }) {
  const [language, setLanguage] = useState(initial);
  const translate = useMemo(() => translator(MESSAGES[language]), [language]);
  setLanguageSource(() => language);
  const choose = (next: Language) => {
    saveLanguage(next);
    setLanguage(next);
  };
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <TranslateProvider value={translate}>
        <LoginPage language={language} onLanguage={choose} />
      </TranslateProvider>
    </ThemeProvider>
  );
}

/** Shows the sign-in page at its address, whatever address a signed-out visitor asked for. */
export function bootLogin(language: Language): void {
  if (window.location.pathname !== LOGIN_PATH)
    window.history.replaceState(null, '', `${LOGIN_PATH}${window.location.search}`);
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <LoginApp initial={language} />
    </StrictMode>,
  );
}
