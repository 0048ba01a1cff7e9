import {
  type CustomValidator,
  createErrorHandler,
  type ErrorTransformer,
  getDefaultFormState,
  type RJSFSchema,
  type RJSFValidationError,
  toErrorSchema,
  type UiSchema,
  unwrapErrorHandler,
  type ValidationData,
  type ValidatorType,
  validationDataMerge,
} from '@rjsf/utils';
import { type CheckError, checkSchema } from '../../../shared/schema/check.js';

type Data = Record<string, unknown>;

/** ajv-shaped errors as the form lists them: a dotted property, the keyword as the name. */
function toValidationErrors(errors: CheckError[]): RJSFValidationError[] {
  return errors.map(({ instancePath, keyword, params, schemaPath, message = '' }) => {
    let property = instancePath.replace(/\//g, '.');
    if ('missingProperty' in params) property = `${property}.${params.missingProperty}`;
    return { name: keyword, property, message, params, stack: `${property} ${message}`.trim(), schemaPath };
  });
}

/**
 * The forms' validator. The console runs under a content security policy that forbids evaluating
 * strings, so instead of compiling schemas (as ajv does on the server) it walks them with the
 * shared checker, whose verdicts a unit test holds to ajv's on every entity schema.
 */
class FormValidator implements ValidatorType<Data, RJSFSchema> {
  rawValidation<Result = CheckError>(schema: RJSFSchema, formData?: Data): { errors?: Result[] } {
    const errors = checkSchema(schema as Data, formData);
    return { errors: errors.length ? (errors as Result[]) : undefined };
  }

  validateFormData(
    formData: Data | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<Data, RJSFSchema>,
    transformErrors?: ErrorTransformer<Data, RJSFSchema>,
    uiSchema?: UiSchema<Data, RJSFSchema>,
  ): ValidationData<Data> {
    let errors = toValidationErrors(checkSchema(schema as Data, formData));
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<Data>(errors);
    if (!customValidate) return { errors, errorSchema };
    const filled = getDefaultFormState<Data, RJSFSchema>(this, schema, formData, schema, true) as Data;
    const handler = customValidate(filled, createErrorHandler<Data>(filled), uiSchema, errorSchema);
    return validationDataMerge<Data>({ errors, errorSchema }, unwrapErrorHandler<Data>(handler));
  }

  isValid(schema: RJSFSchema, formData: Data | undefined): boolean {
    return checkSchema(schema as Data, formData).length === 0;
  }
}

export const validator = new FormValidator();
