import { describe, expect, it } from 'vitest';
import {
  changeDays,
  decideBoarding,
  licenceHolds,
  type ManifestPassenger,
  rosterMove,
  routeMinutes,
  type SignedManifest,
  spansMeet,
  tripSpan,
} from '../../src/shared/transport.js';

const passenger = (id: number, seat?: number, until = '2027-12-31'): ManifestPassenger => ({
  IdPersona: id,
  Nombre: `PERSONA ${id}`,
  Documento: String(40_000_000 + id),
  Compania: 'SERMIPAC',
  Credenciales: [`C${id}`],
  Hasta: until,
  ...(seat && { Asiento: seat }),
});

const manifest = (over: Partial<SignedManifest> = {}): SignedManifest => ({
  IdViaje: 1,
  IdCliente: 1,
  IdDivision: 1,
  Ruta: 'AREQUIPA – UNIDAD',
  Fecha: '2026-12-01',
  Hora: '06:00',
  Asientos: 3,
  Estado: 'P',
  emitido: '2026-12-01T10:00:00.000Z',
  pasajeros: [passenger(1, 1), passenger(2, 2)],
  acreditados: [passenger(3), passenger(4, undefined, '2026-11-30')],
  terminados: [{ Nombre: 'PERSONA 9', Credenciales: ['C9'] }],
  ...over,
});

const read = (n: number, client = 1) => ({ Numero: `C${n}`, IdCliente: client, IdDivision: 1 });
const at = new Date('2026-12-01T11:00:00.000Z');

describe('licence classes', () => {
  it('holds the class needed or one that includes it, in either case', () => {
    expect(licenceHolds('A-IIIc', 'A-IIIa')).toBe(true);
    expect(licenceHolds('A-IIIC', 'A-IIb')).toBe(true);
    expect(licenceHolds('A-IIIa', 'A-IIIa')).toBe(true);
    expect(licenceHolds('A-IIIb', 'A-IIIa')).toBe(false);
    expect(licenceHolds('A-IIb', 'A-IIIa')).toBe(false);
    expect(licenceHolds('A3', 'A2')).toBe(true);
    expect(licenceHolds('A4', 'A3')).toBe(false);
    expect(licenceHolds(null, 'A-I')).toBe(false);
  });
});

describe('rosters', () => {
  it('moves a 14×7 crew up on its first day of work and down on its first day of rest', () => {
    const anchor = '2026-12-01';
    expect(rosterMove(anchor, '2026-12-01', 14, 7)).toBe('S');
    expect(rosterMove(anchor, '2026-12-02', 14, 7)).toBeUndefined();
    expect(rosterMove(anchor, '2026-12-15', 14, 7)).toBe('B');
    expect(rosterMove(anchor, '2026-12-22', 14, 7)).toBe('S');
    expect(rosterMove(anchor, '2026-11-24', 14, 7)).toBe('B');
    expect(changeDays(anchor, 14, 7, '2026-11-20', '2027-01-15')).toEqual([
      '2026-11-24',
      '2026-12-01',
      '2026-12-15',
      '2026-12-22',
      '2027-01-05',
      '2027-01-12',
    ]);
    expect(rosterMove(anchor, '2026-12-01', 7, 0)).toBeUndefined();
  });

  it('tells when two trips meet by their routes’ minutes', () => {
    const minutes = routeMinutes([
      { MinutosDesdeAnterior: 0 },
      { MinutosDesdeAnterior: 120 },
      { MinutosDesdeAnterior: 135 },
    ]);
    expect(minutes).toBe(255);
    const up = tripSpan('2026-12-01', '06:00', minutes);
    expect(spansMeet(up, tripSpan('2026-12-01', '10:00', 60))).toBe(true);
    expect(spansMeet(up, tripSpan('2026-12-01', '10:15', 60))).toBe(false);
    expect(spansMeet(tripSpan('2026-11-30', '23:00', 240), up)).toBe(false);
    expect(spansMeet(tripSpan('2026-11-30', '23:00', 480), up)).toBe(true);
  });
});

describe('the door of the bus', () => {
  it('boards a booked passenger once and names the seat', () => {
    const m = manifest();
    const first = decideBoarding(m, read(1), at, new Set());
    expect(first).toMatchObject({ allow: true, reason: 'BOARD', messageKey: 'transport.boarding.BOARD' });
    expect(first.passenger?.Asiento).toBe(1);
    expect(decideBoarding(m, read(1), at, new Set([1]))).toMatchObject({
      allow: false,
      reason: 'ALREADY_BOARDED',
    });
  });

  it('turns away the demobilised, the unknown, another client’s badge, and decides nothing on an old manifest or a closed trip', () => {
    const m = manifest();
    expect(decideBoarding(m, read(9), at, new Set())).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_ENDED',
    });
    expect(decideBoarding(m, read(4), at, new Set())).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_ENDED',
    });
    expect(decideBoarding(m, read(7), at, new Set()).reason).toBe('UNKNOWN');
    expect(decideBoarding(m, read(1, 2), at, new Set()).reason).toBe('OTHER_CLIENT');
    expect(decideBoarding(m, read(1), new Date('2026-12-02T10:00:01.000Z'), new Set()).reason).toBe(
      'MANIFEST_OLD',
    );
    expect(decideBoarding(manifest({ Estado: 'X' }), read(1), at, new Set()).reason).toBe('TRIP_CLOSED');
  });

  it('boards an accredited person not booked only as an exception with a reason, while seats are free', () => {
    const m = manifest();
    expect(decideBoarding(m, read(3), at, new Set())).toMatchObject({
      allow: false,
      reason: 'NOT_BOOKED',
      free: 1,
    });
    expect(decideBoarding(m, read(3), at, new Set(), { reason: 'no' }).reason).toBe('NOT_BOOKED');
    expect(decideBoarding(m, read(3), at, new Set(), { reason: 'Reemplazo' })).toMatchObject({
      allow: true,
      reason: 'EXCEPTION',
      free: 0,
    });
    const full = manifest({ Asientos: 2 });
    expect(decideBoarding(full, read(3), at, new Set(), { reason: 'Reemplazo' })).toMatchObject({
      allow: false,
      reason: 'NOT_BOOKED',
      free: 0,
    });
  });
});
