import { describe, expect, it } from 'vitest';
import { rucCheckDigit, rutCheckDigit } from '../../src/shared/check-digits.js';
import {
  applyFieldRules,
  changed,
  checkAfter,
  checkDocument,
  type FieldRule,
  fieldRuleEffects,
  formatDocument,
  lockedByState,
  normalizeDocument,
} from '../../src/shared/rules.js';
import type { EntitySchema } from '../../src/shared/schema/types.js';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Persona',
  type: 'object',
  additionalProperties: false,
  'x-module': 'administration',
  'x-primaryKey': 'IdPersona',
  'x-label': ['Nombre'],
  'x-list': ['Nombre'],
  'x-lockedWhen': {
    field: 'Condicion',
    equals: 'C',
    except: ['Condicion', 'IdPosicion'],
    messageKey: 'rules.personCeased',
  },
  required: ['Nombre'],
  properties: {
    IdPersona: { type: 'integer', 'x-generated': true },
    IdCliente: { type: 'integer', readOnly: true },
    Nombre: { type: 'string' },
    Alergia: { type: 'string' },
    Documento: { type: 'string' },
    Condicion: { type: 'string', enum: ['T', 'C'] },
    IdPosicion: { type: 'integer' },
  },
} as unknown as EntitySchema;

const rule = (Campo: string, Obligatorio: string, Modificable: string): FieldRule => ({
  IdDato: 'person',
  Campo,
  Obligatorio,
  Modificable,
});

describe('field rules merged over the schema', () => {
  it('makes Obligatorio fields required and Modificable N fields read-only, on edit only', () => {
    const rules = [rule('Alergia', 'S', 'S'), rule('Documento', 'N', 'N')];
    const create = applyFieldRules(schema, rules, 'create');
    expect(create.schema.required).toEqual(['Nombre', 'Alergia']);
    expect(create.readOnly).toEqual([]);
    const edit = applyFieldRules(schema, rules, 'edit', { Condicion: 'T' });
    expect(edit.schema.required).toEqual(['Nombre', 'Alergia']);
    expect(edit.readOnly).toEqual(['Documento']);
    // The entity schema itself is left as it was.
    expect(schema.required).toEqual(['Nombre']);
  });

  it('never relaxes what the schema requires, and ignores rules for fields a form cannot write', () => {
    const effects = fieldRuleEffects(
      [rule('Nombre', 'N', 'S'), rule('IdCliente', 'S', 'N'), rule('Nada', 'S', 'N')],
      ['Nombre', 'Alergia'],
    );
    expect(effects).toEqual({ required: [], locked: [] });
    expect(applyFieldRules(schema, [rule('Nombre', 'N', 'S')], 'create').schema.required).toEqual(['Nombre']);
  });

  it('adds the fields a locked state freezes to the read-only ones', () => {
    const edit = applyFieldRules(schema, [rule('Alergia', 'N', 'N')], 'edit', { Condicion: 'C' });
    expect(edit.readOnly.sort()).toEqual(['Alergia', 'Documento', 'Nombre']);
    expect(lockedByState(schema['x-lockedWhen'], { Condicion: 'T' }, ['Nombre'])).toEqual([]);
  });

  it('tells a change from the same value sent again', () => {
    expect(changed('A', 'A')).toBe(false);
    expect(changed(null, undefined)).toBe(false);
    expect(changed('', null)).toBe(false);
    expect(changed(3, 3)).toBe(false);
    expect(changed([2, 1], [1, 2])).toBe(false);
    expect(changed([1], [1, 2])).toBe(true);
    expect(changed('A', 'B')).toBe(true);
    expect(changed(null, 0)).toBe(true);
  });
});

describe('end not before start', () => {
  it('names the end field when it comes before its start, for dates and times', () => {
    const rules = [
      { start: 'FechaInicio', end: 'FechaFin' },
      { start: 'HoraInicio', end: 'HoraFin', messageKey: 'rules.own' },
    ];
    expect(checkAfter(rules, { FechaInicio: '2026-05-02', FechaFin: '2026-05-01' })).toEqual({
      FechaFin: { messageKey: 'validation.endBeforeStart', params: { start: 'FechaInicio' } },
    });
    expect(checkAfter(rules, { HoraInicio: '18:00', HoraFin: '08:00' }).HoraFin.messageKey).toBe('rules.own');
    expect(
      checkAfter(rules, { FechaInicio: '2026-05-01', FechaFin: '2026-05-01', HoraInicio: '08:00' }),
    ).toEqual({});
  });
});

describe('documents checked against their type', () => {
  const dni = {
    IdPais: 'PE',
    Alias: 'DNI',
    Longitud: 8,
    LongitudFija: 'S',
    Mascara: '########',
    CaracteresPermitidos: '0-9',
  };
  const run = {
    IdPais: 'CH',
    Alias: 'RUN',
    Longitud: 9,
    LongitudFija: 'N',
    Mascara: '##.###.###-X',
    CaracteresPermitidos: '0-9K',
  };
  const ruc = {
    IdPais: 'PE',
    Alias: 'RUC',
    Longitud: 11,
    LongitudFija: 'S',
    Mascara: '###########',
    CaracteresPermitidos: '0-9',
  };
  const passport = {
    IdPais: 'PE',
    Alias: 'PAS',
    Longitud: null,
    LongitudFija: 'N',
    CaracteresPermitidos: 'A-Z0-9',
  };

  it('checks characters, exact and maximum length (20 by default) and the mask', () => {
    expect(checkDocument('40123456', dni)).toBeUndefined();
    expect(checkDocument('4012345', dni)?.messageKey).toBe('validation.document.exactLength');
    expect(checkDocument('4012345X', dni)?.messageKey).toBe('validation.document.characters');
    expect(checkDocument('A'.repeat(21), passport)?.messageKey).toBe('validation.document.maxLength');
    expect(checkDocument('A'.repeat(20), passport)).toBeUndefined();
    expect(checkDocument('ABC', { ...passport, Mascara: 'AA#' })?.messageKey).toBe(
      'validation.document.mask',
    );
    expect(checkDocument('AB1', { ...passport, Mascara: 'AA#' })).toBeUndefined();
  });

  it('checks the Chilean RUT/RUN and the Peruvian RUC check digits', () => {
    const body = '10110866';
    expect(rutCheckDigit(body)).toBe('K');
    expect(checkDocument(`${body}K`, run)).toBeUndefined();
    expect(checkDocument(`${body}1`, run)?.messageKey).toBe('validation.document.checkDigit');
    const digit = rucCheckDigit('2010000000');
    expect(checkDocument(`2010000000${digit}`, ruc)).toBeUndefined();
    expect(checkDocument(`2010000000${(digit + 1) % 10}`, ruc)?.messageKey).toBe(
      'validation.document.checkDigit',
    );
  });

  it('accepts a RUT as written (12.345.678-5) and bare, keeping one form, and checks its digit', () => {
    expect(normalizeDocument('12.345.678-5')).toBe('123456785');
    expect(normalizeDocument('12345678-5')).toBe('123456785');
    expect(normalizeDocument(' 10.110.866-k ')).toBe('10110866K');
    expect(normalizeDocument('20-12345678-9')).toBe('20123456789');
    expect(checkDocument(normalizeDocument('12.345.678-5'), run)).toBeUndefined();
    expect(checkDocument(normalizeDocument('12.345.678-4'), run)?.messageKey).toBe(
      'validation.document.checkDigit',
    );
    expect(formatDocument(normalizeDocument('12345678-5'), run.Mascara)).toBe('12.345.678-5');
  });

  it('shows a stored document through its mask, the check digit last', () => {
    expect(formatDocument('10110866K', run.Mascara)).toBe('10.110.866-K');
    expect(formatDocument('9876543K', run.Mascara)).toBe('9.876.543-K');
    expect(formatDocument('40123456', null)).toBe('40123456');
  });
});
