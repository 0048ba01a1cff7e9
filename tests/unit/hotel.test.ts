import { describe, expect, it } from 'vitest';
import {
  cellState,
  type GridBed,
  type GridStay,
  halvesOf,
  nightsOf,
  type PlacementBed,
  placePeople,
} from '../../src/shared/hotel.js';

const bed = (id: number, room: number, extra: Partial<PlacementBed> = {}): PlacementBed => ({
  IdCama: id,
  IdHabitacion: room,
  IdTipoHabitacion: 4,
  Genero: 'M',
  Exclusiva: false,
  ...extra,
});

describe('lodging rules', () => {
  it('holds both halves for a whole bed or an exclusive one, one half for a turn on a hot bed', () => {
    expect(halvesOf('C', false)).toEqual(['D', 'N']);
    expect(halvesOf('D', false)).toEqual(['D']);
    expect(halvesOf('N', false)).toEqual(['N']);
    expect(halvesOf('D', true)).toEqual(['D', 'N']);
  });

  it('counts a stay’s nights up to the night before departure', () => {
    expect(nightsOf('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(nightsOf('2026-12-30', '2026-12-30')).toEqual([]);
  });

  it('places a crew in room order, by room type and block, pairing opposite turns on hot beds', () => {
    const beds = [
      bed(1, 10),
      bed(2, 10),
      bed(3, 11, { IdTipoHabitacion: 2 }),
      bed(4, 12, { Genero: 'F' }),
      bed(5, 12, { Genero: 'X' }),
    ];
    const nights = nightsOf('2026-12-01', '2026-12-03');
    const taken = new Set<string>(['2|2026-12-02|D']);
    const placed = placePeople(
      beds,
      [
        { IdPersona: 100, Sexo: 'M', IdTipoHabitacion: 4, Turno: 'D' },
        { IdPersona: 101, Sexo: 'M', IdTipoHabitacion: 4, Turno: 'N' },
        // Bed 2's day half is taken one night: the next day worker goes on to the mixed block.
        { IdPersona: 102, Sexo: 'M', IdTipoHabitacion: 4, Turno: 'D' },
        { IdPersona: 103, Sexo: 'F', IdTipoHabitacion: 4, Turno: 'C' },
        { IdPersona: 104, Sexo: 'M', IdTipoHabitacion: 2, Turno: 'C' },
        { IdPersona: 105, Sexo: 'M', IdTipoHabitacion: 2, Turno: 'C' },
      ],
      nights,
      taken,
    );
    expect(Object.fromEntries(placed)).toEqual({ 100: 1, 101: 1, 102: 5, 103: 4, 104: 3 });
    expect(taken.has('1|2026-12-01|N')).toBe(true);
  });

  it('shows a bed’s night as free, half, reserved, occupied or out of service', () => {
    const gridBed: GridBed = {
      IdCama: 1,
      Codigo: 'A-101-A',
      Exclusiva: false,
      EnServicio: true,
      IdHabitacion: 1,
      Habitacion: 'A-101',
      TipoHabitacion: 'CUÁDRUPLE',
      IdModuloHotel: 1,
      Modulo: 'PABELLÓN A',
      IdCampamento: 1,
      Campamento: 'CAMPAMENTO',
    };
    const stay = (over: Partial<GridStay>): GridStay => ({
      IdReserva: 1,
      IdCama: 1,
      FechaInicio: '2026-12-01',
      FechaFin: '2026-12-03',
      Turno: 'C',
      Estado: 'R',
      IdPersona: 1,
      Persona: 'X',
      Documento: '1',
      Compania: null,
      Suspendida: false,
      ...over,
    });
    expect(cellState(gridBed, [], '2026-12-01')).toBe('free');
    expect(cellState(gridBed, [stay({})], '2026-12-02')).toBe('reserved');
    expect(cellState(gridBed, [stay({})], '2026-12-03')).toBe('free');
    expect(cellState(gridBed, [stay({ Turno: 'D' })], '2026-12-01')).toBe('half');
    expect(cellState(gridBed, [stay({ Turno: 'D' }), stay({ Turno: 'N', Estado: 'I' })], '2026-12-01')).toBe(
      'occupied',
    );
    expect(cellState({ ...gridBed, EnServicio: false }, [], '2026-12-01')).toBe('out');
  });
});
