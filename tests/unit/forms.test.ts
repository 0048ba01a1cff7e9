import { readFileSync } from 'node:fs';
import { TranslatableString } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { localizeErrors, serverErrorSchema } from '../../src/client/resources/form/errors.js';
import {
  buildUiSchema,
  formSchema,
  initialFormData,
  sessionValues,
} from '../../src/client/resources/form/schema.js';
import { formStrings } from '../../src/client/resources/form/strings.js';
import { loadRegistry } from '../../src/server/registry.js';
import { lookup, type Messages, translate as translateIn } from '../../src/shared/i18n.js';

const es = JSON.parse(readFileSync('locales/es.json', 'utf8')) as Messages;
const en = JSON.parse(readFileSync('locales/en.json', 'utf8')) as Messages;
const translate = (key: string, params?: Record<string, unknown>) =>
  translateIn(es, key, params as Record<string, string>) ?? key;
const meta = Object.fromEntries(
  loadRegistry()
    .meta(() => 'write')
    .map((m) => [m.name, m]),
);

describe('forms built from the schemas', () => {
  it('leave the generated key and computed fields out of a new record, and show them read-only when editing', () => {
    expect(Object.keys(formSchema(meta.person, 'create').properties)).not.toContain('IdPersona');
    expect(Object.keys(formSchema(meta.person, 'create').properties)).not.toContain('Edad');
    expect(formSchema(meta.person, 'create').required).toContain('Apellido');
    const edit = buildUiSchema(meta.person, 'edit', translate);
    expect(edit.IdPersona['ui:readonly']).toBe(true);
    expect(formSchema(meta.person, 'edit').properties.Edad.readOnly).toBe(true);
  });

  it('keep a natural key editable on create and read-only on edit', () => {
    expect(buildUiSchema(meta.country, 'create', translate).IdPais['ui:readonly']).toBeUndefined();
    expect(buildUiSchema(meta.country, 'edit', translate).IdPais['ui:readonly']).toBe(true);
  });

  it('label fields and enum values in the language, and pick widgets from the x- keywords', () => {
    const ui = buildUiSchema(meta.person, 'create', translate);
    expect(ui.Apellido['ui:title']).toBe('Apellidos');
    expect(ui.Apellido['ui:options']).toEqual({ upper: true });
    expect(ui.IdCompania).toMatchObject({ 'ui:widget': 'reference', 'ui:options': { reference: 'company' } });
    expect(ui.Sexo['ui:enumNames']).toEqual({ M: 'Masculino', F: 'Femenino' });
    expect(ui.Direccion).toMatchObject({
      'ui:widget': 'textarea',
      'ui:options': { upper: true, wide: true },
    });
    expect(ui['ui:submitButtonOptions']).toMatchObject({ submitText: 'Guardar' });
  });

  it('load a record without server-owned fields and nulls', () => {
    const record = {
      id: 'PE',
      IdPais: 'PE',
      Pais: 'PERÚ',
      Nacionalidad: null,
      FechaCreacion: 'x',
      IdUsuarioCreacion: 'SISTEMA',
    };
    expect(initialFormData(meta.country, 'edit', record)).toEqual({ IdPais: 'PE', Pais: 'PERÚ' });
  });

  it('word their own validation errors like the server does', () => {
    const errors = localizeErrors(
      [
        {
          name: 'required',
          property: '.Nombre',
          params: { missingProperty: 'Nombre' },
          message: 'x',
          stack: 'x',
        },
        { name: 'pattern', property: '.Apellido', params: { pattern: '' }, message: 'x', stack: 'x' },
        { name: 'maxLength', property: '.Documento', params: { limit: 20 }, message: 'x', stack: 'x' },
        // A condition (if/then) fails alongside its fields' own errors: it says nothing more.
        { name: 'if', property: '', params: { failingKeyword: 'then' }, message: 'x', stack: 'x' },
      ],
      meta.person.schema,
      translate,
    );
    expect(errors.map((e) => e.message)).toEqual(['Obligatorio', 'Solo letras', 'Como máximo 20 caracteres']);
  });

  it('put the server field errors under their fields', () => {
    expect(
      serverErrorSchema({ IdPais: { messageKey: 'validation.duplicate', message: 'Ya existe' } }),
    ).toEqual({
      IdPais: { __errors: ['Ya existe'] },
    });
  });

  it('translate every built-in text of the form library, in both languages', () => {
    for (const [name, text] of Object.entries(TranslatableString)) {
      expect(lookup(es, `forms.${name}`), `es forms.${name}`).toBeTruthy();
      expect(lookup(en, `forms.${name}`), `en forms.${name}`).toBeTruthy();
      expect(formStrings(translate)(text as TranslatableString, ['A', 'B', 'C'])).not.toContain('%{');
    }
    expect(formStrings(translate)(TranslatableString.OptionPrefix, ['2'])).toBe('Opción 2');
  });
});

describe('values the session decides', () => {
  it('fix a contractor’s company on its company-scoped records, read-only', () => {
    const fixed = sessionValues(meta.person, 7);
    expect(fixed).toEqual({ IdCompania: 7 });
    expect(initialFormData(meta.person, 'create', undefined, fixed)).toEqual({ IdCompania: 7 });
    expect(buildUiSchema(meta.person, 'create', translate, fixed).IdCompania['ui:readonly']).toBe(true);
    expect(sessionValues(meta.person, null)).toEqual({});
    // The company entity's own key is not a field to fix.
    expect(sessionValues(meta.company, 7)).toEqual({});
  });
});
