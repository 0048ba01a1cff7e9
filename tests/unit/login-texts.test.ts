import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { LOGIN_SECTIONS } from '../../scripts/vite/login-locales.js';
import { lookup, type Messages } from '../../src/shared/i18n.js';

/** The sign-in page's code: it loads only LOGIN_SECTIONS of the locale files. */
const LOGIN_FILES = [
  ...readdirSync('src/client/pages/login').map((f) => join('src/client/pages/login', f)),
  'src/client/components/PasswordField.tsx',
  'src/client/components/LanguageMenu.tsx',
  // The authenticator app's code, enrolment and recovery codes are sign-in steps too.
  'src/client/components/AuthenticatorApp.tsx',
  'workflows/login.machine.ts',
  'workflows/forgot-password.machine.ts',
];

describe('the sign-in page’s texts', () => {
  it('come only from the locale sections it loads, in both languages', () => {
    const missing: string[] = [];
    for (const file of LOGIN_FILES) {
      const code = readFileSync(file, 'utf8');
      for (const [, key] of code.matchAll(/['"`]((?:[a-z]+)\.[a-zA-Z0-9_.]+)(?:\$\{|['"`])/g)) {
        const section = key.split('.')[0];
        if (!/^(?:[a-z]+)$/.test(section) || key.endsWith('.js') || key.endsWith('.')) continue;
        if (!['ra', ...Object.keys(es)].includes(section)) continue;
        if (!(LOGIN_SECTIONS as readonly string[]).includes(section))
          missing.push(`${file}: ${key} (section ${section})`);
        else if (!code.includes(`${key}\${`) && !code.includes(`${key}.\${`))
          for (const [language, messages] of [
            ['es', es],
            ['en', en],
          ] as const)
            if (!lookup(messages as unknown as Messages, key))
              missing.push(`${file}: ${key} missing in ${language}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
