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
  'validation',
] as const;

const ID = 'virtual:login-locales';
const RESOLVED = `\0${ID}`;

/**
 * `import { es, en } from 'virtual:login-locales'`: the sign-in page's texts in both languages,
 * cut from locales/*.json at build time, so the page does not download every screen's labels.
 */
export function loginLocales(root: string): Plugin {
  const files = ['es', 'en'].map((language) => resolve(root, 'locales', `${language}.json`));
  return {
    name: 'login-locales',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const parts = files.map((file) => {
        this.addWatchFile(file);
        const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        const kept = Object.fromEntries(LOGIN_SECTIONS.map((section) => [section, messages[section]]));
        return JSON.stringify(kept);
      });
      return `export const es = ${parts[0]};\nexport const en = ${parts[1]};\n`;
    },
  };
}
