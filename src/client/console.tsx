import { StrictMode } from 'react';
import { localStorageStore } from 'react-admin';
import { createRoot } from 'react-dom/client';
import type { Language } from '../shared/constants.js';
import App from './App.js';
import { CREATES } from './features/index.js';
import { setDefaultTranslate } from './i18n/translate.js';
import { LOGIN_PATH, PUBLIC_CONSOLE_PATHS } from './paths.js';
import { createDataProvider } from './providers/data.js';
import { createI18nProvider, MESSAGES } from './providers/i18n.js';
import { forgetLookups } from './providers/lookups.js';
import { fetchMeta, type Meta, SIGNED_OUT_META } from './providers/meta.js';
import { withSavedQueries } from './providers/savedQueries.js';
import { setLanguageSource } from './session/http.js';
import { session } from './session/store.js';

function showBootError(language: Language, retry: () => void) {
  const app = (MESSAGES[language] as unknown as { app: { error: { metaLoad: string; retry: string } } }).app
    .error;
  const root = document.getElementById('root') as HTMLElement;
  root.innerHTML = '';
  const box = document.createElement('div');
  box.id = 'boot';
  box.setAttribute('role', 'alert');
  box.textContent = `${app.metaLoad} `;
  const button = document.createElement('button');
  button.textContent = app.retry;
  button.onclick = retry;
  box.append(button);
  root.append(box);
}

/**
 * The screens the session's profile reaches; none before sign-in. A session the server ended,
 * or a locked screen reloaded (its tokens are gone), starts again at the login page.
 */
async function loadMeta(): Promise<Meta> {
  if (!session.signedIn()) return SIGNED_OUT_META;
  const meta = await fetchMeta();
  if (meta) return meta;
  session.clear();
  return SIGNED_OUT_META;
}

/** Starts the console (react-admin) in the language chosen before, for the signed-in profile. */
export async function boot(language: Language): Promise<void> {
  const store = localStorageStore('1', 'acreditacion');
  try {
    const meta = await loadMeta();
    if (meta === SIGNED_OUT_META && !PUBLIC_CONSOLE_PATHS.test(window.location.pathname)) {
      window.location.replace(LOGIN_PATH);
      return;
    }
    // react-admin keeps its own copy of the language, which a sign-out forgets.
    store.setItem('locale', language);
    const appStore = meta === SIGNED_OUT_META ? store : await withSavedQueries(store);
    const i18nProvider = createI18nProvider(language);
    setLanguageSource(() => i18nProvider.getLocale());
    setDefaultTranslate((key, options) => i18nProvider.translate(key, options));
    createRoot(document.getElementById('root') as HTMLElement).render(
      <StrictMode>
        <App
          meta={meta}
          dataProvider={createDataProvider(
            i18nProvider,
            (resource) => {
              // A change to a reference list makes its cached copy stale.
              const lookup = meta.resources.find((r) => r.name === resource)?.schema['x-lookup'];
              if (lookup) forgetLookups(lookup);
            },
            CREATES,
          )}
          i18nProvider={i18nProvider}
          store={appStore}
        />
      </StrictMode>,
    );
  } catch {
    showBootError(language, () => window.location.reload());
  }
}
