import { describe, expect, it } from 'vitest';
import { yearsSince } from '../../src/shared/dates.js';
import { createAjv } from '../../src/shared/schema/ajv.js';
import { PATTERNS, type PatternName } from '../../src/shared/schema/patterns.js';
import { fieldProblemsFromAjv } from '../../src/shared/validation.js';

const matches = (name: PatternName, value: string) => new RegExp(PATTERNS[name], 'u').test(value);

describe('named input patterns (spec section 5)', () => {
  it.each([
    ['numeric', ['0', '987654321'], ['12a', '-1', '1 2', '']],
    [
      'letters',
      ['QUISPE', 'MARÍA JOSÉ', 'PEÑA', "D'ANGELO", 'PÉREZ-ALBELA'],
      ['QUISPE3', 'A  B', ' A', 'A.'],
    ],
    ['alphanumeric', ['PENICILINA 500', 'ÁCAROS'], ['PENICILINA, POLEN', 'A_B']],
    ['code', ['DNI', 'RUC_2', 'PAS-1', '76543218K'], ['DNI 2', 'Ñ', 'A.B']],
    ['description', ['MINERA ANDINA S.A.A. (SEDE 2) #4'], ['<script>', 'a>b']],
    ['ip', ['192.168.1.10', '10.0.0.255'], ['256.1.1.1', '1.2.3', '1.2.3.4.5', 'a.b.c.d']],
    [
      'mac',
      ['00-1A-2B-3C-4D-5E', '00:1a:2b:3c:4d:5e', '001A.2B3C.4D5E'],
      ['00-1A-2B-3C-4D', 'ZZ-1A-2B-3C-4D-5E'],
    ],
    ['hostname', ['lector-01', 'srv.minandes.local'], ['-lector', 'a..b', 'lector_01']],
    ['path', ['/srv/repositorio/fotos', 'C:\\Repositorio\\Fotos'], ['/srv/<x>', 'a|b']],
    ['schedule', ['00:00', '07:30', '23:59'], ['24:00', '7:30', '12:60']],
    ['charClass', ['0-9', '0-9K', 'A-Z0-9'], ['[0-9]', '0-', '\\d']],
  ] as Array<[PatternName, string[], string[]]>)('%s', (name, good, bad) => {
    for (const value of good) expect(matches(name, value), value).toBe(true);
    for (const value of bad) expect(matches(name, value), value).toBe(false);
  });
});

describe('field problems from ajv', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['Nombre'],
    properties: {
      Nombre: { type: 'string', maxLength: 5, 'x-pattern': 'letters', pattern: PATTERNS.letters },
      Codigo: { type: 'string', pattern: '^[A-Z]+$' },
      Hijos: { type: 'integer', minimum: 0 },
      Correo: { type: 'string', format: 'email' },
      Sexo: { type: 'string', enum: ['M', 'F'] },
    },
  } as const;
  const validate = createAjv().compile(schema);
  const problems = (data: unknown) => {
    validate(data);
    return fieldProblemsFromAjv(validate.errors ?? [], schema as never);
  };

  it('gives one translation key per field', () => {
    expect(problems({ Nombre: 'ROSA1234', Codigo: 'a', Hijos: -1, Correo: 'x', Sexo: 'X', Otro: 1 })).toEqual(
      {
        Nombre: { messageKey: 'validation.maxLength', params: { limit: 5 } },
        Codigo: { messageKey: 'validation.patternMismatch' },
        Hijos: { messageKey: 'validation.minimum', params: { limit: 0 } },
        Correo: { messageKey: 'validation.format.email' },
        Sexo: { messageKey: 'validation.enum' },
        Otro: { messageKey: 'validation.unknownField' },
      },
    );
  });

  it('names the missing field and the named pattern', () => {
    expect(problems({})).toEqual({ Nombre: { messageKey: 'validation.required' } });
    expect(problems({ Nombre: 'ROS4' })).toEqual({ Nombre: { messageKey: 'validation.patterns.letters' } });
  });
});

describe('age from birth date', () => {
  it('counts whole years, before and after the birthday', () => {
    const today = new Date('2026-11-21T12:00:00Z');
    expect(yearsSince('1990-11-21', today)).toBe(36);
    expect(yearsSince('1990-11-22', today)).toBe(35);
    expect(yearsSince('2030-01-01', today)).toBeUndefined();
    expect(yearsSince('21/11/1990', today)).toBeUndefined();
  });
});
