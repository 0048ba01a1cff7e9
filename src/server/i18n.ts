import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/constants.js';
import type { MessageParams } from '../shared/errors.js';
import { type Messages, translate } from '../shared/i18n.js';
import { LOCALES_DIR } from './paths.js';

const catalogs = new Map<Language, Messages>();

function catalog(language: Language): Messages {
  let messages = catalogs.get(language);
  if (!messages) {
    messages = JSON.parse(readFileSync(resolve(LOCALES_DIR, `${language}.json`), 'utf8')) as Messages;
    catalogs.set(language, messages);
  }
  return messages;
}

/** Picks es or en from an Accept-Language header; Spanish when neither is asked for. */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim().toLowerCase().slice(0, 2), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  const match = ranked.find((r) => (LANGUAGES as readonly string[]).includes(r.tag));
  return (match?.tag as Language | undefined) ?? DEFAULT_LANGUAGE;
}

/** The message for a key in the given language; the key itself when a locale lacks it. */
export function t(language: Language, key: string, params?: MessageParams): string {
  return translate(catalog(language), key, params) ?? translate(catalog('en'), key, params) ?? key;
}

/** A resource's display name (singular or plural) in the given language. */
export function resourceName(language: Language, resource: string, plural = false): string {
  const name = t(language, `resources.${resource}.name`);
  const forms = name.split('||||').map((s) => s.trim());
  return (plural ? forms[1] : forms[0]) ?? forms[0];
}
