import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignmentOn,
  cycleWorks,
  type DayInput,
  type DayJustification,
  dailyResult,
  daysTouched,
  type Holiday,
  hoursProblem,
  type Marking,
  overlappingWeekdays,
  planOf,
  type ScheduleAssignment,
  type ScheduleDay,
  type ScheduleType,
  wallMinutes,
} from '../../src/shared/attendance.js';
import { addDays, zoneOffset } from '../../src/shared/dates.js';

const LIMA = 'America/Lima';

/** The instant a wall clock of a zone reads `time` on `day` (next-day times as 24:30, 31:00…). */
function at(day: string, time: string, timeZone = LIMA): string {
  const [h, m] = time.split(':').map(Number);
  const wall = Date.parse(`${day}T00:00:00Z`) + (h * 60 + m) * 60_000;
  // The zone's offset near that wall time (two passes settle a change of offset).
  let instant = wall - zoneOffset(timeZone, wall);
  instant = wall - zoneOffset(timeZone, instant);
  return new Date(instant).toISOString();
}
const mark = (day: string, time: string, direction: 'E' | 'S', id?: number, timeZone = LIMA): Marking => ({
  at: at(day, time, timeZone),
  direction,
  ...(id !== undefined && { id }),
});

const schedule = (over: Partial<ScheduleType>): ScheduleType => ({
  IdTipoHorario: 1,
  Tipo: 'S',
  TurnoDiario: 'D',
  DiasTrabajo: 5,
  DiasDescanso: 2,
  MinutosFlexibles: 0,
  HoraEntrada: '08:00',
  HoraSalida: '17:00',
  InicioRefrigerio: '13:00',
  FinRefrigerio: '14:00',
  ToleranciaMinutos: 10,
  HorasExtraAntes: 0,
  HorasExtraDespues: 120,
  ...over,
});
const OFFICE = schedule({});
const DAY_14X7 = schedule({
  IdTipoHorario: 2,
  Tipo: 'C',
  DiasTrabajo: 14,
  DiasDescanso: 7,
  HoraEntrada: '07:00',
  HoraSalida: '19:00',
  InicioRefrigerio: '12:00',
  FinRefrigerio: '13:00',
  ToleranciaMinutos: 5,
  HorasExtraAntes: 30,
  HorasExtraDespues: 60,
});
const NIGHT_14X7 = schedule({
  ...DAY_14X7,
  IdTipoHorario: 3,
  TurnoDiario: 'N',
  HoraEntrada: '19:00',
  HoraSalida: '07:00',
  InicioRefrigerio: '00:00',
  FinRefrigerio: '01:00',
});
const FLEXIBLE = schedule({
  IdTipoHorario: 4,
  Tipo: 'F',
  MinutosFlexibles: 60,
  HoraEntrada: '08:30',
  HoraSalida: '17:30',
  ToleranciaMinutos: 0,
  HorasExtraDespues: 0,
});
const AUTOMATIC = schedule({ IdTipoHorario: 5, Tipo: 'A', HoraEntrada: null, HoraSalida: null });

// Monday 2 November 2026 … a roster from Monday 2 November.
const MON = '2026-11-02';
const ROSTER: ScheduleAssignment = { IdTipoHorario: 2, FechaInicio: '2026-10-01', FechaAncla: MON };
const FROM: ScheduleAssignment = { IdTipoHorario: 1, FechaInicio: '2026-01-01' };
const HOLIDAYS: Holiday[] = [{ Fecha: '2026-11-05', Descripcion: 'FERIADO DE PRUEBA' }];

const day = (
  date: string,
  sched: ScheduleType,
  markings: Marking[],
  extra: Partial<DayInput> = {},
  assignment: ScheduleAssignment = sched.Tipo === 'C' ? ROSTER : FROM,
  holidays: Holiday[] = HOLIDAYS,
  timeZone = LIMA,
) =>
  dailyResult({
    day: date,
    timeZone,
    plan: planOf(date, sched, assignment, holidays),
    next: planOf(addDays(date, 1), sched, assignment, holidays),
    markings,
    ...extra,
  });

describe('a day by its schedule', () => {
  it('works a 14×7 roster fourteen days from its anchor and rests seven, before the anchor too', () => {
    const works = Array.from({ length: 42 }, (_, i) => cycleWorks(MON, addDays(MON, i - 21), 14, 7));
    expect(works.map((w) => (w ? 1 : 0)).join('')).toBe('111111111111110000000'.repeat(2).slice(0, 42));
    expect(cycleWorks(MON, MON, 4, 3)).toBe(true);
    expect(cycleWorks(MON, addDays(MON, 4), 4, 3)).toBe(false);
    expect(cycleWorks(MON, addDays(MON, 7), 4, 3)).toBe(true);
  });

  it('takes the assignment in force: the latest started, not ended', () => {
    const list = [
      { IdTipoHorario: 1, FechaInicio: '2026-01-01' },
      { IdTipoHorario: 2, FechaInicio: '2026-11-10', FechaFin: '2026-11-20' },
    ];
    expect(assignmentOn(list, '2026-11-09')?.IdTipoHorario).toBe(1);
    expect(assignmentOn(list, '2026-11-15')?.IdTipoHorario).toBe(2);
    expect(assignmentOn(list, '2026-11-21')?.IdTipoHorario).toBe(1);
    expect(assignmentOn(list, '2025-12-31')).toBeUndefined();
  });

  it('reads a weekly schedule by its weekdays (its own rows or its first working days), holidays off', () => {
    expect(planOf(MON, OFFICE, FROM).working).toBe(true);
    expect(planOf(addDays(MON, 5), OFFICE, FROM).working).toBe(false);
    expect(planOf('2026-11-05', OFFICE, FROM, HOLIDAYS)).toMatchObject({
      working: false,
      holiday: 'FERIADO DE PRUEBA',
    });
    const saturdays = schedule({
      Dias: [
        {
          Dia: 1,
          HoraEntrada: '08:00',
          HoraSalida: '17:00',
          InicioRefrigerio: '13:00',
          FinRefrigerio: '14:00',
        },
        { Dia: 6, HoraEntrada: '08:00', HoraSalida: '12:00' },
      ],
    });
    expect(planOf(addDays(MON, 5), saturdays, FROM)).toMatchObject({ working: true, start: 480, end: 720 });
    expect(planOf(addDays(MON, 1), saturdays, FROM).working).toBe(false);
  });

  it('keeps a roster working on a holiday (the day is flagged)', () => {
    expect(planOf('2026-11-05', DAY_14X7, ROSTER, HOLIDAYS)).toMatchObject({
      working: true,
      holiday: 'FERIADO DE PRUEBA',
    });
  });
});

type Case = [
  name: string,
  date: string,
  sched: ScheduleType,
  markings: Marking[],
  expected: Partial<ReturnType<typeof dailyResult>>,
  extra?: Partial<DayInput>,
];
const D = MON;
const N = addDays(MON, 1);
const CASES: Case[] = [
  [
    'on time, break taken, no overtime',
    D,
    OFFICE,
    [mark(D, '07:58', 'E', 1), mark(D, '17:00', 'S', 2)],
    {
      status: 'WORKED',
      workedMinutes: 482,
      breakMinutes: 60,
      lateMinutes: 0,
      overtimeBeforeMinutes: 0,
      overtimeAfterMinutes: 0,
      earlyLeaveMinutes: 0,
    },
  ],
  [
    'late exactly at the tolerance: not late',
    D,
    OFFICE,
    [mark(D, '08:10', 'E'), mark(D, '17:00', 'S')],
    { status: 'WORKED', lateMinutes: 0 },
  ],
  [
    'late one minute beyond the tolerance: the whole delay',
    D,
    OFFICE,
    [mark(D, '08:11', 'E'), mark(D, '17:00', 'S')],
    { status: 'WORKED', lateMinutes: 11 },
  ],
  [
    'early leave',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '16:15', 'S')],
    { earlyLeaveMinutes: 45, overtimeAfterMinutes: 0, workedMinutes: 435 },
  ],
  [
    'overtime after the exit up to the limit (120)',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '20:30', 'S')],
    { overtimeAfterMinutes: 120, workedMinutes: 690 },
  ],
  [
    'overtime before the entry up to the limit (30) on a roster',
    D,
    DAY_14X7,
    [mark(D, '06:10', 'E'), mark(D, '19:20', 'S')],
    { overtimeBeforeMinutes: 30, overtimeAfterMinutes: 20, lateMinutes: 0 },
  ],
  [
    'a working day with no marking: absent',
    D,
    OFFICE,
    [],
    { status: 'ABSENT', workedMinutes: 0, markings: [] },
  ],
  ['a rest day with no marking', addDays(D, 5), OFFICE, [], { status: 'REST' }],
  [
    'a rest day worked',
    addDays(D, 5),
    OFFICE,
    [mark(addDays(D, 5), '09:00', 'E'), mark(addDays(D, 5), '12:00', 'S')],
    { status: 'REST_WORKED', workedMinutes: 180, lateMinutes: 0 },
  ],
  ['a holiday off', '2026-11-05', OFFICE, [], { status: 'HOLIDAY' }],
  [
    'a holiday worked on a roster',
    '2026-11-05',
    DAY_14X7,
    [mark('2026-11-05', '07:00', 'E'), mark('2026-11-05', '19:00', 'S')],
    { status: 'HOLIDAY_WORKED', workedMinutes: 660 },
  ],
  [
    'an entry without exit: flagged, not guessed',
    D,
    OFFICE,
    [mark(D, '08:00', 'E')],
    { status: 'INCOMPLETE', workedMinutes: 0, flags: ['ENTRY_WITHOUT_EXIT'], earlyLeaveMinutes: 0 },
  ],
  [
    'two entries then an exit: the first entry unpaired, the second pair counted',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '09:00', 'E'), mark(D, '17:00', 'S')],
    { status: 'WORKED', flags: ['ENTRY_WITHOUT_EXIT'], workedMinutes: 420, lateMinutes: 0 },
  ],
  [
    'an exit without entry',
    D,
    OFFICE,
    [mark(D, '17:00', 'S')],
    { status: 'INCOMPLETE', flags: ['EXIT_WITHOUT_ENTRY'] },
  ],
  [
    'out and back in at lunch: both pairs, the break not taken twice',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '13:00', 'S'), mark(D, '14:00', 'E'), mark(D, '17:00', 'S')],
    { workedMinutes: 480, breakMinutes: 0 },
  ],
  [
    'out for lunch before the break window: only what is left of the break is deducted',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '12:00', 'S'), mark(D, '12:53', 'E'), mark(D, '17:00', 'S')],
    { workedMinutes: 480, breakMinutes: 7 },
  ],
  [
    'worked through the break: the whole break deducted',
    D,
    OFFICE,
    [mark(D, '08:00', 'E'), mark(D, '17:00', 'S')],
    { workedMinutes: 480, breakMinutes: 60 },
  ],
  [
    'a night turn across midnight belongs to the day it started',
    D,
    NIGHT_14X7,
    [mark(D, '18:50', 'E'), mark(N, '07:40', 'S')],
    {
      status: 'WORKED',
      plannedEntry: '19:00',
      plannedExit: '07:00',
      workedMinutes: 710,
      breakMinutes: 60,
      overtimeBeforeMinutes: 10,
      overtimeAfterMinutes: 40,
    },
  ],
  [
    'a night turn late beyond its tolerance',
    D,
    NIGHT_14X7,
    [mark(D, '19:06', 'E'), mark(N, '07:00', 'S')],
    { lateMinutes: 6 },
  ],
  [
    'flexible: an entry within the flexible minutes is on time and moves the exit',
    D,
    FLEXIBLE,
    [mark(D, '09:15', 'E'), mark(D, '18:15', 'S')],
    { lateMinutes: 0, earlyLeaveMinutes: 0, overtimeAfterMinutes: 0 },
  ],
  [
    'flexible: an early exit against the moved exit',
    D,
    FLEXIBLE,
    [mark(D, '09:15', 'E'), mark(D, '17:45', 'S')],
    { earlyLeaveMinutes: 30 },
  ],
  [
    'flexible: beyond the flexible minutes, late from their end',
    D,
    FLEXIBLE,
    [mark(D, '09:40', 'E'), mark(D, '18:40', 'S')],
    { lateMinutes: 10 },
  ],
  [
    "automatic: the company's schedule nearest the first entry",
    D,
    AUTOMATIC,
    [mark(D, '18:55', 'E'), mark(N, '07:05', 'S')],
    {
      status: 'WORKED',
      IdTipoHorario: 5,
      plannedEntry: '19:00',
      plannedExit: '07:00',
      overtimeAfterMinutes: 5,
    },
    { candidates: [DAY_14X7, NIGHT_14X7] },
  ],
  ['automatic: no marking is no absence', D, AUTOMATIC, [], { status: 'REST' }, { candidates: [DAY_14X7] }],
];

describe('the daily result', () => {
  it.each(CASES)('%s', (_, date, sched, markings, expected, extra) => {
    const result = day(date, sched, markings, extra);
    expect(result).toMatchObject(expected);
  });

  it("leaves out the markings of the day before's night turn and the next day's", () => {
    const previous = addDays(D, -1);
    const markings = [
      mark(previous, '19:00', 'E', 1),
      mark(D, '07:00', 'S', 2),
      mark(D, '19:02', 'E', 3),
      mark(N, '07:00', 'S', 4),
      mark(N, '19:00', 'E', 5),
    ];
    const result = day(D, NIGHT_14X7, markings);
    expect(result.markings).toEqual([3, 4]);
    expect(result.flags).toEqual([]);
  });

  it('has no schedule without an assignment', () => {
    const plan = planOf(D, undefined, undefined);
    expect(
      dailyResult({ day: D, timeZone: LIMA, plan, next: plan, markings: [mark(D, '08:00', 'E')] }).status,
    ).toBe('NO_SCHEDULE');
  });

  it('justifies an absence (its planned minutes), a late entry (up to its lateness) and hours, paid or not', () => {
    const absence: DayJustification = { IdJustificacion: 1, Tipo: 'F', Pagado: 'S' };
    expect(day(D, OFFICE, [], { justifications: [absence] })).toMatchObject({
      status: 'JUSTIFIED',
      justifiedMinutes: 480,
      paidJustifiedMinutes: 480,
    });
    const late: DayJustification = { IdJustificacion: 2, Tipo: 'T', Pagado: 'N', Minutos: 20 };
    expect(
      day(D, OFFICE, [mark(D, '08:45', 'E'), mark(D, '17:00', 'S')], { justifications: [late] }),
    ).toMatchObject({
      lateMinutes: 25,
      justifiedMinutes: 20,
      paidJustifiedMinutes: 0,
    });
    // An absence justified on a day worked justifies nothing.
    expect(
      day(D, OFFICE, [mark(D, '08:00', 'E'), mark(D, '17:00', 'S')], { justifications: [absence] }),
    ).toMatchObject({
      status: 'WORKED',
      justifiedMinutes: 0,
    });
  });
});

describe('the daily result, by property', () => {
  const minute = fc.integer({ min: -300, max: 2000 });
  const markingsArb = fc.array(fc.record({ minute, direction: fc.constantFrom<'E' | 'S'>('E', 'S') }), {
    maxLength: 8,
  });
  const toMarkings = (list: Array<{ minute: number; direction: 'E' | 'S' }>, zone = LIMA) =>
    list.map((m, i) => {
      const wall = Date.parse(`${D}T00:00:00Z`) + m.minute * 60_000;
      const instant = wall - zoneOffset(zone, wall);
      return { at: new Date(instant).toISOString(), direction: m.direction, id: i + 1 };
    });

  it('does not depend on the order the markings arrive in', () => {
    fc.assert(
      fc.property(markingsArb, fc.constantFrom(OFFICE, DAY_14X7, NIGHT_14X7, FLEXIBLE), (list, sched) => {
        const markings = toMarkings(list);
        const reversed = [...markings].reverse();
        const shuffled = [...markings].sort((a, b) => ((a.id * 7919) % 13) - ((b.id * 7919) % 13));
        const one = day(D, sched, markings);
        expect(day(D, sched, reversed)).toEqual(one);
        expect(day(D, sched, shuffled)).toEqual(one);
      }),
    );
  });

  it('reads the same wall-clock day the same in any time zone without a change of offset', () => {
    fc.assert(
      fc.property(
        markingsArb,
        fc.constantFrom('America/Lima', 'Asia/Tokyo', 'UTC', 'Asia/Kolkata'),
        (list, zone) => {
          const here = day(D, NIGHT_14X7, toMarkings(list));
          const there = day(D, NIGHT_14X7, toMarkings(list, zone), {}, ROSTER, HOLIDAYS, zone);
          const strip = (r: typeof here) => ({ ...r, firstEntry: undefined, lastExit: undefined });
          expect(strip(there)).toEqual(strip(here));
        },
      ),
    );
  });

  it('never works more than the span of the markings, nor counts a marking in two days', () => {
    fc.assert(
      fc.property(markingsArb, fc.constantFrom(OFFICE, NIGHT_14X7, DAY_14X7), (list, sched) => {
        const markings = toMarkings(list);
        const results = [-1, 0, 1, 2].map((d) => day(addDays(D, d), sched, markings));
        const counted = results.flatMap((r) => r.markings);
        expect(new Set(counted).size).toBe(counted.length);
        for (const r of results) {
          expect(r.workedMinutes).toBeGreaterThanOrEqual(0);
          if (r.firstEntry && r.lastExit)
            expect(r.workedMinutes).toBeLessThanOrEqual(
              Math.max(0, (Date.parse(r.lastExit) - Date.parse(r.firstEntry)) / 60_000),
            );
          expect(r.overtimeAfterMinutes).toBeLessThanOrEqual(sched.HorasExtraDespues);
          expect(r.overtimeBeforeMinutes).toBeLessThanOrEqual(sched.HorasExtraAntes);
        }
      }),
    );
  });

  it('is late exactly when the entry is beyond the tolerance', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 30 }), (delay, tolerance) => {
        const sched = { ...DAY_14X7, ToleranciaMinutos: tolerance };
        const entry = 420 + delay;
        const list = [
          { minute: entry, direction: 'E' as const },
          { minute: 1140, direction: 'S' as const },
        ];
        const result = day(D, sched, toMarkings(list));
        expect(result.lateMinutes).toBe(delay > tolerance ? delay : 0);
      }),
    );
  });

  it('gives a marking to one of the three local days around it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * 24 * 60 }), (m) => {
        const instant = Date.parse(at(D, '00:00')) + m * 60_000;
        const days = daysTouched(instant, LIMA);
        expect(days).toHaveLength(3);
        expect(wallMinutes(instant, days[1], LIMA)).toBeGreaterThanOrEqual(0);
        expect(wallMinutes(instant, days[1], LIMA)).toBeLessThan(1440);
      }),
    );
  });
});

describe("a schedule's hours", () => {
  it.each([
    ['08:00', '17:00', '13:00', '14:00', undefined],
    ['08:00', '17:00', null, null, undefined],
    ['19:00', '07:00', '01:00', '02:00', undefined],
    ['19:00', '07:00', '23:30', '00:30', undefined],
    ['22:00', '06:00', '02:00', '02:45', undefined],
    ['08:00', null, null, null, 'HOURS_MISSING'],
    ['08:00', '17:00', '13:00', null, 'BREAK_INCOMPLETE'],
    ['08:00', '17:00', '16:30', '17:30', 'BREAK_OUTSIDE'],
    ['08:00', '17:00', '07:00', '08:00', 'BREAK_OUTSIDE'],
    ['19:00', '07:00', '07:30', '08:00', 'BREAK_OUTSIDE'],
    ['19:00', '07:00', '18:00', '19:30', 'BREAK_OUTSIDE'],
  ] as const)('%s–%s with a break %s–%s: %s', (entry, exit, from, to, problem) => {
    expect(hoursProblem(entry, exit, from, to)).toBe(problem);
  });

  const day = (Dia: number, HoraEntrada: string, HoraSalida: string) =>
    ({ Dia, HoraEntrada, HoraSalida }) as ScheduleDay;
  it.each([
    ['office week and a Saturday morning', [day(1, '08:00', '17:00'), day(6, '08:00', '13:00')], undefined],
    [
      'nights that end before the next one starts',
      [day(1, '19:00', '07:00'), day(2, '19:00', '07:00')],
      undefined,
    ],
    ['a night into the next morning’s shift', [day(1, '20:00', '08:00'), day(2, '06:00', '14:00')], [1, 2]],
    ['two shifts of one day', [day(3, '06:00', '14:00'), day(3, '13:00', '20:00')], [3, 3]],
    ['Sunday’s night into Monday’s morning', [day(1, '06:00', '14:00'), day(7, '22:00', '07:00')], [7, 1]],
  ])('%s', (_, days, overlap) => {
    expect(overlappingWeekdays(days)).toEqual(overlap);
  });
});
