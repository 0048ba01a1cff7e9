import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.js';
import { isLanguage } from '../language.js';

export const MESSAGES: Record<Language, TranslationMessages> = {
  es: es as unknown as TranslationMessages,
  en: { ...englishMessages, ...en } as TranslationMessages,
};

/** Spanish first, English second; the names stay in their own language in the menu. */
export function createI18nProvider(initial: Language = DEFAULT_LANGUAGE): I18nProvider {
  return polyglotI18nProvider((locale) => MESSAGES[isLanguage(locale) ? locale : DEFAULT_LANGUAGE], initial, [
    { locale: 'es', name: 'Español' },
    { locale: 'en', name: 'English' },
  ]);
}
