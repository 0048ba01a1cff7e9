import { describe, expect, it } from 'vitest';
import {
  CONCEPTS_OF,
  CONDITION_PROCEDURES,
  type ConditionDay,
  chileanWeek,
  nightMinutes,
  payFigures,
} from '../../src/shared/special-conditions.js';

const LIMA = 'America/Lima';
const WEEK = { desde: '2026-11-16', hasta: '2026-11-22', timeZone: LIMA };
const at = (day: string, hhmm: string) => new Date(Date.parse(`${day}T${hhmm}:00-05:00`)).toISOString();

/** A day worked from `from` to `to` (Lima time; `to` on the next day when earlier), with its figures. */
function day(
  Fecha: string,
  worked: number,
  overtime: [number, number] = [0, 0],
  Estado = 'WORKED',
  hours?: [string, string],
): ConditionDay {
  const next = new Date(Date.parse(`${Fecha}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    Fecha,
    Estado,
    MinutosTrabajados: worked,
    MinutosExtraAntes: overtime[0],
    MinutosExtraDespues: overtime[1],
    ...(hours && {
      PrimeraEntrada: at(Fecha, hours[0]),
      UltimaSalida: at(hours[1] < hours[0] ? next : Fecha, hours[1]),
    }),
  };
}

describe('special conditions: minutes by pay concept', () => {
  it('gives each computation its concepts, and only them', () => {
    for (const procedure of CONDITION_PROCEDURES)
      expect(Object.keys(payFigures(procedure, [], WEEK))).toEqual([...CONCEPTS_OF[procedure]]);
  });

  it('overtime (Peru): each day’s first two hours at 25 %, the rest at 35 %', () => {
    const days = [day('2026-11-16', 600, [30, 150]), day('2026-11-17', 540, [0, 60]), day('2026-11-18', 480)];
    expect(payFigures('SP_ASI_SOBRETIEMPO', days, WEEK)).toEqual({ EXTRA_25: 120 + 60, EXTRA_35: 60 });
  });

  it('night work: the minutes between 22:00 and 06:00, on either side of midnight, at most those worked', () => {
    expect(nightMinutes(day('2026-11-16', 660, [0, 0], 'WORKED', ['19:00', '07:00']), LIMA)).toBe(480);
    expect(nightMinutes(day('2026-11-16', 660, [0, 0], 'WORKED', ['05:00', '17:00']), LIMA)).toBe(60);
    expect(nightMinutes(day('2026-11-16', 540, [0, 0], 'WORKED', ['08:00', '17:00']), LIMA)).toBe(0);
    // Out between pairs: never more than the minutes worked.
    expect(nightMinutes(day('2026-11-16', 200, [0, 0], 'WORKED', ['19:00', '07:00']), LIMA)).toBe(200);
    // No exit: nothing is guessed.
    expect(nightMinutes({ ...day('2026-11-16', 0), PrimeraEntrada: at('2026-11-16', '22:00') }, LIMA)).toBe(
      0,
    );
    const days = [
      day('2026-11-16', 660, [0, 60], 'WORKED', ['19:00', '08:00']),
      day('2026-11-17', 0, [0, 0], 'ABSENT'),
    ];
    expect(payFigures('SP_ASI_TRABAJO_NOCTURNO', days, WEEK)).toEqual({
      EXTRA_25: 60,
      EXTRA_35: 0,
      NOCTURNO: 480,
    });
  });

  it('holiday or rest day worked: all its minutes, and the other days’ overtime', () => {
    const days = [
      day('2026-11-16', 600, [0, 120]),
      day('2026-11-21', 240, [0, 0], 'REST_WORKED'),
      day('2026-11-22', 300, [0, 0], 'HOLIDAY_WORKED'),
      day('2026-11-20', 0, [0, 0], 'HOLIDAY'),
    ];
    expect(payFigures('SP_ASI_FERIADO_LABORADO', days, WEEK)).toEqual({
      EXTRA_25: 120,
      EXTRA_35: 0,
      FERIADO: 540,
    });
  });

  it('atypical shifts: only what exceeds the period’s 48 h weekly average, two hours a day worked at 25 %', () => {
    // Seven days of eleven hours in a week: 77 h against 48 h, 29 h over; 14 h at 25 %, 15 h at 35 %.
    const seven = Array.from({ length: 7 }, (_, i) => day(`2026-11-${16 + i}`, 660, [0, 60]));
    expect(payFigures('SP_ASI_JORNADA_ATIPICA', seven, WEEK)).toEqual({
      EXTRA_25: 14 * 60,
      EXTRA_35: 15 * 60,
    });
    // Over a 14x7 roster's three weeks, 14 days of 11 h (154 h) against 144 h: 10 h over, all at 25 %.
    const cycle = { desde: '2026-11-02', hasta: '2026-11-22', timeZone: LIMA };
    const fourteen = Array.from({ length: 14 }, (_, i) =>
      day(`2026-11-${String(2 + i).padStart(2, '0')}`, 660),
    );
    expect(payFigures('SP_ASI_JORNADA_ATIPICA', fourteen, cycle)).toEqual({ EXTRA_25: 600, EXTRA_35: 0 });
    // Days outside the period are not counted.
    expect(payFigures('SP_ASI_JORNADA_ATIPICA', fourteen, WEEK)).toEqual({ EXTRA_25: 0, EXTRA_35: 0 });
  });

  it('Chile’s exceptional shifts: what exceeds the legal week’s average, at 50 %, the week as in force', () => {
    expect([
      chileanWeek('2026-04-25'),
      chileanWeek('2026-04-26'),
      chileanWeek('2028-04-26'),
      chileanWeek('2030-05-01'),
    ]).toEqual([45, 44, 42, 40]);
    // A 7x7's week on: 7 days of 11 h, 77 h against 44 h.
    const seven = Array.from({ length: 7 }, (_, i) => day(`2026-11-${16 + i}`, 660));
    expect(payFigures('SP_ASI_JORNADA_EXCEPCIONAL_CL', seven, WEEK)).toEqual({ EXTRA_50: (77 - 44) * 60 });
    const before = { desde: '2026-03-02', hasta: '2026-03-08', timeZone: 'America/Santiago' };
    const march = Array.from({ length: 7 }, (_, i) => day(`2026-03-0${2 + i}`, 660));
    expect(payFigures('SP_ASI_JORNADA_EXCEPCIONAL_CL', march, before)).toEqual({ EXTRA_50: (77 - 45) * 60 });
  });
});
