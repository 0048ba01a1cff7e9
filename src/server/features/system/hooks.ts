import { OWN_RECORD_FORM, SELF_EDITABLE } from '../../../shared/own-record.js';
import type { HookMap } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/** The active form object (kind F) that stands for a console form; none: the form takes no rules. */
async function formObjectOf(db: Db, registry: Registry, form: string): Promise<number> {
  const found = (await db
    .selectFrom(registry.require('form-object').table)
    .select('IdObjeto')
    .where('Recurso', '=', form)
    .where('Tipo', '=', 'F')
    .where('Activo', '=', 'S')
    .orderBy('IdObjeto')
    .executeTakeFirst()) as { IdObjeto: number } | undefined;
  if (!found)
    throw new ApiError('VALIDATION_FAILED', {
      fields: { IdDato: { messageKey: 'validation.formObjectMissing', params: { form } } },
    });
  return Number(found.IdObjeto);
}

/** Rules of the system screens beyond the schemas. */
export function systemHooks(registry: Registry): HookMap {
  return {
    'field-rule': {
      // A rule names a form that exists and a field that form writes, and binds to its form object.
      async beforeWrite({ db, data }) {
        // The security page's own form: a user's own record, within what a user may ever change.
        if (data.IdDato === OWN_RECORD_FORM) {
          if (!(SELF_EDITABLE as readonly unknown[]).includes(data.Campo))
            throw new ApiError('VALIDATION_FAILED', {
              fields: {
                Campo: { messageKey: 'validation.unknownFormField', params: { form: OWN_RECORD_FORM } },
              },
            });
          data.IdObjeto = await formObjectOf(db, registry, OWN_RECORD_FORM);
          return;
        }
        const form = registry.get(String(data.IdDato));
        if (!form || form.readOnly || (form.workflow && form.hidden))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdDato: { messageKey: 'validation.unknownForm' } },
          });
        const scope = new Set(Object.values(form.scope));
        if (!form.writable.includes(String(data.Campo)) || scope.has(String(data.Campo)))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { Campo: { messageKey: 'validation.unknownFormField', params: { form: form.name } } },
          });
        data.IdObjeto = await formObjectOf(db, registry, form.name);
      },
    },
  };
}
