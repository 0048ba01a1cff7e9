import { customizeValidator } from '@rjsf/validator-ajv8';
import { AJV_OPTIONS } from '../../../shared/schema/ajv.js';

/** The forms validate with the server's ajv options and formats, so both judge a value alike. */
export const validator = customizeValidator({
  ajvOptionsOverrides: { ...AJV_OPTIONS, strict: false },
  ajvFormatOptions: ['date', 'date-time', 'email', 'regex'],
});
