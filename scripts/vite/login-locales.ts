import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The parts of the locale files the sign-in page shows (the console loads them whole). */
export const LOGIN_SECTIONS = [
  'app',
  'api',
  'login',
  'password',
  'forgot',
  'recovery',
  'totp',
  'validation',
] as const;

/**
 * `import { es, en } from id`: what `pick` keeps of locales/es.json and locales/en.json, cut at
 * build time, so a page that needs a few texts does not download every screen's labels.
 */
export function localeSlice(
  root: string,
  id: string,
  pick: (messages: Record<string, unknown>) => unknown,
  name: string,
): Plugin {
  const resolved = `\0${id}`;
  const files = ['es', 'en'].map((language) => resolve(root, 'locales', `${language}.json`));
  return {
    name,
    resolveId: (source) => (source === id ? resolved : undefined),
    load(source) {
      if (source !== resolved) return undefined;
      const parts = files.map((file) => {
        this.addWatchFile(file);
        return JSON.stringify(pick(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>));
      });
      return `export const es = ${parts[0]};\nexport const en = ${parts[1]};\n`;
    },
  };
}

/**
 * `import { es, en } from 'virtual:login-locales'`: the sign-in page's texts in both languages,
 * cut from locales/*.json at build time, so the page does not download every screen's labels.
 */
export function loginLocales(root: string): Plugin {
  return localeSlice(
    root,
    'virtual:login-locales',
    (messages) => Object.fromEntries(LOGIN_SECTIONS.map((section) => [section, messages[section]])),
    'login-locales',
  );
}
