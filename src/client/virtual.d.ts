/** The sign-in page's texts, cut from locales/*.json at build time (scripts/vite/login-locales.ts). */
declare module 'virtual:login-locales' {
  import type { Messages } from '../shared/i18n.js';
  export const es: Messages;
  export const en: Messages;
}

/** The gate app's texts, cut from locales/*.json at build time (scripts/vite/gate-app.ts). */
declare module 'virtual:gate-locales' {
  import type { Messages } from '../shared/i18n.js';
  export const es: Messages;
  export const en: Messages;
}
