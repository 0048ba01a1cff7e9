import { createContext, useContext } from 'react';
import type { MessageParams } from '../../shared/errors.js';
import { interpolate, lookup, type Messages } from '../../shared/i18n.js';

/** react-admin's translate signature: a key, its %{placeholders}, smart_count and a default (_). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A polyglot-style translate over a message tree: `a |||| b` picks by smart_count, 1 or other. */
export function translator(messages: Messages): Translate {
  return (key, options = {}) => {
    let text = lookup(messages, key);
    if (text === undefined) return typeof options._ === 'string' ? options._ : key;
    if (text.includes('||||')) {
      const forms = text.split('||||').map((form) => form.trim());
      text = (options.smart_count === 1 ? forms[0] : forms[1]) ?? forms[0];
    }
    return interpolate(text, options as MessageParams);
  };
}

const TranslateContext = createContext<Translate | null>(null);
let fallback: Translate = (key) => key;

/** The screens shared by the sign-in page and the console translate through this. */
export const TranslateProvider = TranslateContext.Provider;

/** The console's translate, for shared screens rendered without a provider (the language is fixed per load). */
export function setDefaultTranslate(translate: Translate): void {
  fallback = translate;
}

export function useT(): Translate {
  return useContext(TranslateContext) ?? fallback;
}
