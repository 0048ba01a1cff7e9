import { en, es } from 'virtual:gate-locales';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.js';
import type { Messages } from '../../shared/i18n.js';
import { type Translate, translator } from '../i18n/translate.js';
import { isLanguage } from '../language.js';

export type { Language };

/** Only the gate's texts of the locales (the decision's reasons and the app's own), not the console's. */
const MESSAGES: Record<Language, Messages> = { es, en };

/** The language `?lang=` asks for, else the product's. */
export const initialLanguage = (): Language => {
  const asked = new URLSearchParams(window.location.search).get('lang');
  return isLanguage(asked) ? asked : DEFAULT_LANGUAGE;
};

/** The console's own translate over the gate's texts. */
export const textsOf = (language: Language): Translate => translator(MESSAGES[language]);
