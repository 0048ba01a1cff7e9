import { en, es } from 'virtual:gate-locales';
import type { MessageParams } from '../../shared/errors.js';
import { type Messages, translate } from '../../shared/i18n.js';

export type Language = 'es' | 'en';

/** Only the gate's texts of the locales (the decision's reasons and the app's own), not the console's. */
const MESSAGES: Record<Language, Messages> = { es, en };

export const initialLanguage = (): Language => {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked === 'en' || asked === 'es') return asked;
  return 'es';
};

export const textsOf =
  (language: Language) =>
  (key: string, params?: MessageParams): string =>
    translate(MESSAGES[language], key, params) ?? key;
