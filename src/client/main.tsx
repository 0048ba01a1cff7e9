import { startLanguage } from './language.js';
import { PUBLIC_CONSOLE_PATHS } from './paths.js';
import { session } from './session/store.js';

/**
 * The first script of every page, kept small: a signed-in user (or anybody on an error page)
 * gets the console; anybody else the sign-in page alone, at once, whatever address was asked.
 */
const language = startLanguage();
if (session.signedIn() || PUBLIC_CONSOLE_PATHS.test(window.location.pathname)) {
  import('./console.js').then(({ boot }) => boot(language));
} else {
  import('./pages/login/LoginApp.js').then(({ bootLogin }) => bootLogin(language));
}
