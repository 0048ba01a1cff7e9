import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../../shared/errors.js';
import type { EntitySchema } from '../../../shared/schema/types.js';
import { problemFromAjv, restatesFieldErrors } from '../../../shared/validation.js';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The form's own validation messages, in the console's language and worded as the server words them. */
export function localizeErrors(
  errors: RJSFValidationError[],
  schema: Pick<EntitySchema, 'properties'>,
  translate: Translate,
): RJSFValidationError[] {
  return errors
    .filter((error) => !restatesFieldErrors(error.name))
    .map((error) => {
      const mapped = problemFromAjv(
        {
          keyword: error.name,
          instancePath: (error.property ?? '').replace(/^\./, '/'),
          params: error.params,
        },
        schema,
      );
      if (!mapped) return error;
      const message = translate(mapped.problem.messageKey, mapped.problem.params);
      return { ...error, message, stack: message };
    });
}

/** Per-field errors of an API error body, as the form's extra errors. */
export function serverErrorSchema(errors: Record<string, FieldError> | undefined): ErrorSchema {
  const schema: Record<string, { __errors: string[] }> = {};
  for (const [field, error] of Object.entries(errors ?? {})) schema[field] = { __errors: [error.message] };
  return schema as ErrorSchema;
}
