/**
 * The generic input patterns of spec section 5. A property says `"x-pattern": "<name>"` and the
 * registry writes the regular expression into its `pattern`; the error message is
 * `validation.pattern.<name>` in both locales.
 */
const LETTER = 'A-Za-zÁÉÍÓÚÜÑáéíóúüñ';

export const PATTERNS = {
  numeric: '^[0-9]+$',
  letters: `^[${LETTER}]+(?:[ '-][${LETTER}]+)*$`,
  alphanumeric: `^[${LETTER}0-9 ]+$`,
  code: '^[A-Za-z0-9_-]+$',
  description: '^[^<>\\u0000-\\u001f]+$',
  ip: '^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$',
  mac: '^(?:[0-9A-Fa-f]{2}[-:]){5}[0-9A-Fa-f]{2}$|^(?:[0-9A-Fa-f]{4}\\.){2}[0-9A-Fa-f]{4}$',
  hostname:
    '^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
  path: '^[A-Za-z0-9_ .:/\\\\-]+$',
  schedule: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$',
  /** A regular-expression character class body such as `0-9`, `0-9K` or `A-Z0-9`. */
  charClass: '^(?:[A-Za-z0-9](?:-[A-Za-z0-9])?)+$',
} as const;

export type PatternName = keyof typeof PATTERNS;

export function isPatternName(value: string): value is PatternName {
  return Object.hasOwn(PATTERNS, value);
}
