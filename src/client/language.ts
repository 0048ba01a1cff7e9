import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/constants.js';

/** The language the user chose, kept apart from react-admin's store, which a sign-out empties. */
const KEY = 'acreditacion.lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language chosen here before (?lang= or a language menu), if one was. */
export function chosenLanguage(): Language | undefined {
  try {
    const stored = window.localStorage.getItem(KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function storedLanguage(): Language {
  return chosenLanguage() ?? DEFAULT_LANGUAGE;
}

export function saveLanguage(language: Language): void {
  try {
    window.localStorage.setItem(KEY, language);
  } catch {
    // Without storage the language lasts as long as the page.
  }
  document.documentElement.lang = language;
}

/**
 * ?lang=en or ?lang=es picks the language (and leaves the address), and keeps it through the
 * sign-in and later visits; otherwise the last one chosen; Spanish at first.
 */
export function startLanguage(): Language {
  const url = new URL(window.location.href);
  const asked = url.searchParams.get('lang');
  if (isLanguage(asked)) {
    saveLanguage(asked);
    url.searchParams.delete('lang');
    window.history.replaceState(window.history.state, '', url);
    return asked;
  }
  const language = storedLanguage();
  document.documentElement.lang = language;
  return language;
}
