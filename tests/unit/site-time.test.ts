import { describe, expect, it } from 'vitest';
import { dateSerial } from '../../src/server/services/excel.js';
import { siteDateTime, zoneOffset } from '../../src/shared/dates.js';

describe('times as the site’s clocks read them', () => {
  it('knows each site’s offset, summer time included', () => {
    expect(zoneOffset('America/Lima', Date.parse('2026-11-26T13:00:00Z'))).toBe(-5 * 3_600_000);
    // Santiago keeps summer time in November (-3), not in July (-4).
    expect(zoneOffset('America/Santiago', Date.parse('2026-11-26T13:00:00Z'))).toBe(-3 * 3_600_000);
    expect(zoneOffset('America/Santiago', Date.parse('2026-07-01T13:00:00Z'))).toBe(-4 * 3_600_000);
  });

  it('writes an instant as the site reads it, on the screens and in the exports', () => {
    expect(siteDateTime('PE', Date.parse('2026-11-26T03:04:05Z'))).toBe('25/11/2026 22:04:05');
    expect(siteDateTime('CL', Date.parse('2026-11-26T03:04:05Z'))).toBe('26/11/2026 00:04:05');
    const serial = dateSerial('2026-11-26T13:30:00.000Z', 'America/Lima') as number;
    const wall = new Date((serial - 25569) * 86_400_000);
    expect(wall.toISOString()).toBe('2026-11-26T08:30:00.000Z');
    // A date stays the date it is.
    expect(dateSerial('2026-11-26', 'America/Lima')).toBe(Date.UTC(2026, 10, 26) / 86_400_000 + 25569);
  });
});
