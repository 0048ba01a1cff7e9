import { describe, expect, it } from 'vitest';
import { chileLocations, peruLocations } from '../../src/server/reference/locations.js';

describe('locations of Peru and Chile', () => {
  it.each([
    ['Peru (INEI: departments, provinces, districts)', peruLocations(), [25, 196, 1867]],
    ['Chile (CUT: regions, provinces, communes)', chileLocations(), [16, 56, 346]],
  ] as const)('%s come in three levels, each below its parent', (_name, rows, counts) => {
    expect([1, 2, 3].map((level) => rows.filter((r) => r.Nivel === level).length)).toEqual(counts);
    const ids = new Set(rows.map((r) => r.IdUbigeo));
    expect(ids.size).toBe(rows.length);
    for (const row of rows) {
      if (row.Nivel === 1) expect(row.IdUbigeoPadre).toBeNull();
      else {
        expect(ids.has(String(row.IdUbigeoPadre)), row.IdUbigeo).toBe(true);
        expect(row.IdUbigeo.startsWith(String(row.IdUbigeoPadre))).toBe(true);
      }
      expect(row.Nombre).toBe(row.Nombre.toLocaleUpperCase('es'));
    }
  });

  it('holds the places the demo divisions are in', () => {
    const names = (rows: ReturnType<typeof peruLocations>) =>
      new Map(rows.map((r) => [r.IdUbigeo, r.Nombre]));
    const peru = names(peruLocations());
    expect(peru.get('PE18')).toBe('MOQUEGUA');
    expect(peru.get('PE1802')).toBe('GENERAL SÁNCHEZ CERRO');
    expect(peru.get('PE180204')).toBe('ICHUÑA');
    const chile = names(chileLocations());
    expect(chile.get('CH02201')).toBe('CALAMA');
    expect(chile.get('CH13101')).toBe('SANTIAGO');
    expect(chile.get('CH16')).toBe('ÑUBLE');
  });
});
