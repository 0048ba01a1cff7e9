import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { X_KEYWORDS } from './types.js';

/** Options shared by the server's validator and the forms' validator, so both judge alike. */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  // A condition's "then" names fields the schema's properties define, not its own.
  strictRequired: false,
  keywords: [...X_KEYWORDS],
};

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(ajv, ['date', 'date-time', 'email', 'regex']);
  return ajv;
}
