import { readFileSync } from 'node:fs';
import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/server/registry.js';
import { ERROR_CODES } from '../../src/shared/errors.js';
import { leafKeys, lookup, type Messages } from '../../src/shared/i18n.js';
import { MODULES } from '../../src/shared/modules.js';
import { PATTERNS } from '../../src/shared/schema/patterns.js';
import { AUDIT_FIELDS } from '../../src/shared/schema/types.js';

const read = (language: string) => JSON.parse(readFileSync(`locales/${language}.json`, 'utf8')) as Messages;
const es = read('es');
const en = read('en');
const locales = { es, en } as const;
const registry = loadRegistry();
const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  it('Spanish has a text for every react-admin English message, with the same placeholders', () => {
    const raKeys = leafKeys(englishMessages as unknown as Messages);
    // A blank text is only right where English is blank too (ra.boolean.null is a visible blank).
    const missing = raKeys.filter(
      (key) => !lookup(es, key)?.trim() && lookup(englishMessages as never, key)?.trim() !== '',
    );
    expect(missing).toEqual([]);
    for (const key of raKeys) {
      expect(placeholders(lookup(es, key) ?? ''), key).toEqual(
        placeholders(lookup(englishMessages as never, key) ?? ''),
      );
    }
    expect(leafKeys({ ra: es.ra } as Messages).filter((key) => !raKeys.includes(key))).toEqual([]);
  });

  it('the product texts exist in both languages, with the same placeholders', () => {
    const own = (messages: Messages) => leafKeys(messages).filter((key) => !key.startsWith('ra.'));
    expect(own(es).sort()).toEqual(own(en).sort());
    for (const key of own(es)) {
      expect(lookup(es, key)?.trim(), `es ${key}`).toBeTruthy();
      expect(placeholders(lookup(es, key) ?? ''), key).toEqual(placeholders(lookup(en, key) ?? ''));
    }
  });

  it.each(Object.entries(locales))(
    '%s labels every module, error code and named pattern',
    (_lang, messages) => {
      for (const module of MODULES) expect(lookup(messages, `app.modules.${module}`), module).toBeTruthy();
      for (const code of Object.keys(ERROR_CODES))
        expect(lookup(messages, `api.errors.${code}`), code).toBeTruthy();
      for (const name of Object.keys(PATTERNS))
        expect(lookup(messages, `validation.patterns.${name}`), name).toBeTruthy();
      for (const field of AUDIT_FIELDS) expect(lookup(messages, `app.audit.${field}`), field).toBeTruthy();
    },
  );

  it.each(Object.entries(locales))('%s labels every entity, field and enum value', (_lang, messages) => {
    const missing: string[] = [];
    for (const entity of registry.entities) {
      if (entity.group && !lookup(messages, `app.menu.groups.${entity.group}`))
        missing.push(`app.menu.groups.${entity.group}`);
      for (const messageKey of [
        entity.lockedWhen?.messageKey,
        ...entity.after.map((rule) => rule.messageKey),
        ...Object.values(entity.schema.properties).map((prop) => prop['x-message']),
      ]) {
        if (messageKey && !lookup(messages, messageKey)) missing.push(messageKey);
      }
      for (const section of entity.schema['x-sections'] ?? [])
        if (!lookup(messages, `resources.${entity.name}.sections.${section.name}`))
          missing.push(`resources.${entity.name}.sections.${section.name}`);
      const name = lookup(messages, `resources.${entity.name}.name`);
      if (name?.split('||||').length !== 2)
        missing.push(`resources.${entity.name}.name (singular |||| plural)`);
      for (const [field, prop] of Object.entries(entity.schema.properties)) {
        if (!lookup(messages, `resources.${entity.name}.fields.${field}`)) {
          missing.push(`resources.${entity.name}.fields.${field}`);
        }
        for (const value of prop.enum ?? []) {
          if (!lookup(messages, `enums.${prop['x-enum']}.${value}`))
            missing.push(`enums.${prop['x-enum']}.${value}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no labels for entities or fields that do not exist', () => {
    for (const messages of [es, en]) {
      const resources = messages.resources as Record<string, { fields: Record<string, string> }>;
      for (const [name, labels] of Object.entries(resources)) {
        const entity = registry.get(name);
        expect(entity, `resources.${name}`).toBeDefined();
        for (const field of Object.keys(labels.fields ?? {})) {
          expect(
            Object.hasOwn(entity?.schema.properties ?? {}, field),
            `resources.${name}.fields.${field}`,
          ).toBe(true);
        }
      }
    }
  });
});
