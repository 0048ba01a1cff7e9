import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { notYearZero } from '../dates.js';
import { X_KEYWORDS } from './types.js';

/** Options shared by the server's validator and the forms' validator, so both judge alike. */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  // A condition's "then" names fields the schema's properties define, not its own.
  strictRequired: false,
  // NaN and Infinity (JSON's 1e400) are no numbers.
  strictNumbers: true,
  keywords: [...X_KEYWORDS],
};

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(ajv, ['date', 'date-time', 'email', 'regex']);
  for (const name of ['date', 'date-time'] as const) {
    const { validate, compare } = fullFormats[name] as { validate: (s: string) => boolean; compare: never };
    ajv.addFormat(name, { type: 'string', validate: (s: string) => notYearZero(s) && validate(s), compare });
  }
  return ajv;
}
