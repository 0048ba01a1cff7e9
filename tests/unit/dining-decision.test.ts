import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DiningService,
  type DiningSite,
  decideMeal,
  MEAL_REASONS,
  type MealInput,
  type MealReason,
  mealCost,
  mealMessageKey,
  money,
  sittingAt,
} from '../../src/shared/dining.js';
import { lookup, type Messages, translate } from '../../src/shared/i18n.js';

const LIMA = 'America/Lima';
/** 2025-03-10 is a Monday; Lima is UTC−5 all year. */
const lima = (local: string) => new Date(`${local}:00-05:00`);

const service = (over: Partial<DiningService> & Pick<DiningService, 'IdServicio'>): DiningService => ({
  Descripcion: `S${over.IdServicio}`,
  Orden: over.IdServicio,
  Costo: 10,
  NumeroConsumos: 1,
  Exclusivo: 'N',
  Especial: 'N',
  HoraInicio: '00:00',
  HoraFin: '23:59',
  Activo: 'S',
  ...over,
});

const LUNCH = service({
  IdServicio: 2,
  Descripcion: 'ALMUERZO',
  HoraInicio: '11:30',
  HoraFin: '14:30',
  Costo: 18.9,
});
const NIGHT = service({
  IdServicio: 4,
  Descripcion: 'REFRIGERIO',
  HoraInicio: '23:30',
  HoraFin: '02:00',
  Costo: 9.8,
});
const EXEC = service({
  IdServicio: 5,
  Descripcion: 'EJECUTIVO',
  HoraInicio: '15:00',
  HoraFin: '16:00',
  Exclusivo: 'S',
});
const GALA = service({
  IdServicio: 6,
  Descripcion: 'GALA',
  HoraInicio: '16:00',
  HoraFin: '17:00',
  Especial: 'S',
});
const COMPANY = 20;
const WORKER = 7;
const EMPLOYEE = 3;

function site(): DiningSite {
  const all = [LUNCH, NIGHT, EXEC, GALA];
  return {
    room: { IdComedor: 1, IdDivision: 1, Capacidad: 100, Activo: 'S' },
    type: { AplicaCapacidad: 'S', DistribuirCostoCategoria: 'S', Capacidad: 300 },
    services: all,
    groups: [{ IdGrupoComedor: 9, Companias: [COMPANY], Activo: 'S' }],
    schedules: [1, 2, 3, 4, 5, 6, 7].flatMap((Dia) =>
      all.map((s) => ({
        IdGrupoComedor: 9,
        Dia: Dia as 1,
        IdServicio: s.IdServicio,
        HoraInicio: s.IdServicio === LUNCH.IdServicio ? '11:30' : s.HoraInicio,
        HoraFin: s.IdServicio === LUNCH.IdServicio ? '14:00' : s.HoraFin,
        Activo: 'S' as const,
      })),
    ),
    assignments: [
      { IdServicio: LUNCH.IdServicio, IdTipoPosicion: WORKER, AsumeCosto: 'C', Porcentaje: 100, Activo: 'S' },
      {
        IdServicio: LUNCH.IdServicio,
        IdCategoriaCosto: EMPLOYEE,
        AsumeCosto: 'T',
        Porcentaje: 20,
        Activo: 'S',
      },
      { IdServicio: EXEC.IdServicio, IdTipoPosicion: 99, AsumeCosto: 'C', Porcentaje: 100, Activo: 'S' },
    ],
  };
}

function input(over: Partial<MealInput> = {}): MealInput {
  return {
    site: site(),
    at: lima('2025-03-10T12:45'),
    timeZone: LIMA,
    presented: { kind: 'document', Documento: '40000001' },
    diner: {
      person: { IdPersona: 1, Condicion: 'T', Inactivo: 'N', ValidarRequisitosAcceso: 'S' },
      accreditations: [
        { IdDivision: 1, IdContrato: 1, FechaInicio: '2025-01-01', FechaFin: '2025-12-31', Estado: 'A' },
      ],
      IdCompania: COMPANY,
      IdTipoPosicion: WORKER,
      categories: [],
    },
    used: 0,
    served: 0,
    ...over,
  };
}

type Change = (i: MealInput) => void;
const TABLE: Array<[MealReason, Change]> = [
  ['ALLOWED', () => {}],
  [
    'ROOM_INACTIVE',
    (i) => {
      i.site.room.Activo = 'N';
    },
  ],
  [
    'NO_SERVICE',
    (i) => {
      i.at = lima('2025-03-10T10:00');
    },
  ],
  [
    'UNKNOWN',
    (i) => {
      i.diner = undefined;
    },
  ],
  [
    'CREDENTIAL_INACTIVE',
    (i) => {
      i.presented = { kind: 'credential', Numero: 'FC-1' };
      i.credential = {
        IdPersona: 1,
        Numero: 'FC-1',
        FechaInicio: '2025-01-01',
        FechaFin: '2025-12-31',
        Activo: 'N',
      };
    },
  ],
  [
    'CREDENTIAL_EXPIRED',
    (i) => {
      i.presented = { kind: 'credential', Numero: 'FC-1' };
      i.credential = {
        IdPersona: 1,
        Numero: 'FC-1',
        FechaInicio: '2025-01-01',
        FechaFin: '2025-03-09',
        Activo: 'S',
      };
    },
  ],
  [
    'CREDENTIAL_NOT_YET_VALID',
    (i) => {
      i.presented = { kind: 'credential', Numero: 'FC-1' };
      i.credential = {
        IdPersona: 1,
        Numero: 'FC-1',
        FechaInicio: '2025-03-11',
        FechaFin: '2025-12-31',
        Activo: 'S',
      };
    },
  ],
  [
    'NOT_ACCREDITED',
    (i) => {
      if (i.diner) i.diner.accreditations = [];
    },
  ],
  [
    'ACCREDITATION_SUSPENDED',
    (i) => {
      if (i.diner) i.diner.accreditations[0].Estado = 'S';
    },
  ],
  [
    'ACCREDITATION_TERMINATED',
    (i) => {
      if (i.diner) i.diner.accreditations[0].Estado = 'T';
    },
  ],
  [
    'ACCREDITATION_OUT_OF_DATES',
    (i) => {
      if (i.diner) i.diner.accreditations[0].FechaFin = '2025-03-01';
    },
  ],
  [
    'PERSON_CEASED',
    (i) => {
      if (i.diner) i.diner.person.Condicion = 'C';
    },
  ],
  [
    'PERSON_INACTIVE',
    (i) => {
      if (i.diner) i.diner.person.Inactivo = 'S';
    },
  ],
  [
    'NOT_IN_GROUP',
    (i) => {
      if (i.diner) i.diner.IdCompania = 21;
    },
  ],
  [
    'NO_GROUP_SCHEDULE',
    (i) => {
      i.site.schedules = i.site.schedules.filter((r) => r.Dia !== 1);
    },
  ],
  [
    'OUTSIDE_GROUP_SCHEDULE',
    (i) => {
      i.at = lima('2025-03-10T14:15');
    },
  ],
  [
    'EXCLUSIVE_SERVICE',
    (i) => {
      i.at = lima('2025-03-10T15:30');
    },
  ],
  [
    'SPECIAL_SERVICE',
    (i) => {
      i.at = lima('2025-03-10T16:30');
    },
  ],
  [
    'ALREADY_SERVED',
    (i) => {
      i.used = 1;
    },
  ],
  [
    'ROOM_FULL',
    (i) => {
      i.served = 100;
    },
  ],
];

const read = (language: string) => JSON.parse(readFileSync(`locales/${language}.json`, 'utf8')) as Messages;
const locales = { es: read('es'), en: read('en') };

describe('the meal decision', () => {
  it.each(TABLE)('%s', (reason, change) => {
    const i = input();
    change(i);
    const decision = decideMeal(i);
    expect(decision.reason).toBe(reason);
    expect(decision.allow).toBe(reason === 'ALLOWED');
    for (const messages of Object.values(locales)) {
      const text = translate(messages, decision.messageKey, decision.params);
      expect(text, reason).not.toMatch(/%\{/);
      expect(text).not.toBe(decision.messageKey);
    }
  });

  it('has a row for every reason the decision gives, and every reason has its message in both languages', () => {
    const table = new Set(TABLE.map(([r]) => r));
    for (const reason of MEAL_REASONS) {
      if (!reason.startsWith('TOKEN_')) expect(table.has(reason), reason).toBe(true);
      for (const messages of Object.values(locales))
        expect(lookup(messages, mealMessageKey(reason)), reason).toBeTruthy();
    }
  });

  it('weighs identity before the accreditation, the group before the count, the count before the room', () => {
    const i = input({ used: 1, served: 100 });
    expect(decideMeal(i).reason).toBe('ALREADY_SERVED');
    if (i.diner) i.diner.IdCompania = 21;
    expect(decideMeal(i).reason).toBe('NOT_IN_GROUP');
    if (i.diner) i.diner.accreditations[0].Estado = 'T';
    expect(decideMeal(i).reason).toBe('ACCREDITATION_TERMINATED');
  });

  it('lets the room’s type decide whether capacity applies, the room’s own before its type’s', () => {
    const i = input({ served: 150 });
    expect(decideMeal(i).reason).toBe('ROOM_FULL');
    i.site.room.Capacidad = null;
    expect(decideMeal(i).reason).toBe('ALLOWED');
    i.site.type.AplicaCapacidad = 'N';
    expect(decideMeal({ ...i, served: 10_000 }).reason).toBe('ALLOWED');
  });

  it('serves an exclusive service to the position types assigned to it, a special one to people with a category', () => {
    const exec = input({ at: lima('2025-03-10T15:30') });
    if (exec.diner) exec.diner.IdTipoPosicion = 99;
    expect(decideMeal(exec).reason).toBe('ALLOWED');
    const gala = input({ at: lima('2025-03-10T16:30') });
    gala.diner?.categories.push({ IdCategoriaCosto: EMPLOYEE, FechaInicio: '2025-03-01', Activo: 'S' });
    expect(decideMeal(gala).reason).toBe('ALLOWED');
  });

  it('checks a manual meal’s group and count but not the group’s hours', () => {
    const late = input({
      at: lima('2025-03-10T17:00'),
      manual: { IdServicio: LUNCH.IdServicio, day: '2025-03-10' },
    });
    expect(decideMeal(late)).toMatchObject({ allow: true, sitting: { day: '2025-03-10' } });
    expect(decideMeal({ ...late, used: 1 }).reason).toBe('ALREADY_SERVED');
  });
});

describe('the cost of a meal', () => {
  const lunch = input();
  it('splits by the position type’s assignment, the company bearing it all by default', () => {
    expect(
      mealCost(
        LUNCH,
        lunch.site.type,
        { IdTipoPosicion: WORKER, categories: [] },
        lunch.site.assignments,
        '2025-03-10',
      ),
    ).toMatchObject({
      total: 1890,
      company: 1890,
      worker: 0,
      by: 'position',
    });
    expect(
      mealCost(
        NIGHT,
        lunch.site.type,
        { IdTipoPosicion: WORKER, categories: [] },
        lunch.site.assignments,
        '2025-03-10',
      ),
    ).toMatchObject({
      total: 980,
      company: 980,
      by: 'none',
    });
  });
  it('splits by the category in force that day where the type distributes by category', () => {
    const employee = {
      IdTipoPosicion: WORKER,
      categories: [
        {
          IdCategoriaCosto: EMPLOYEE,
          FechaInicio: '2025-03-01',
          FechaFin: '2025-03-31',
          Activo: 'S' as const,
        },
      ],
    };
    expect(mealCost(LUNCH, lunch.site.type, employee, lunch.site.assignments, '2025-03-10')).toMatchObject({
      company: 1512,
      worker: 378,
      companyPercent: 80,
      by: 'category',
      IdCategoriaCosto: EMPLOYEE,
    });
    // Out of its dates, or a type that does not distribute by category: the position's.
    expect(mealCost(LUNCH, lunch.site.type, employee, lunch.site.assignments, '2025-04-01').by).toBe(
      'position',
    );
    expect(
      mealCost(
        LUNCH,
        { ...lunch.site.type, DistribuirCostoCategoria: 'N' },
        employee,
        lunch.site.assignments,
        '2025-03-10',
      ).by,
    ).toBe('position');
  });
  it('always adds up in cents, whatever the price and the percentage', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom('C', 'T'),
        (cents, pct, who) => {
          const cost = mealCost(
            { ...LUNCH, Costo: cents / 100 },
            { ...lunch.site.type, DistribuirCostoCategoria: 'N' },
            { IdTipoPosicion: WORKER, categories: [] },
            [
              {
                IdServicio: LUNCH.IdServicio,
                IdTipoPosicion: WORKER,
                AsumeCosto: who as 'C',
                Porcentaje: pct,
                Activo: 'S',
              },
            ],
            '2025-03-10',
          );
          return (
            cost.total === cents &&
            cost.company + cost.worker === cents &&
            cost.company >= 0 &&
            cost.worker >= 0
          );
        },
      ),
    );
    expect(money(1890)).toBe('18.90');
    expect(money(5)).toBe('0.05');
  });
});

// ---- The sitting at an instant, against a model that walks the services in order over a ring of minutes.

const DAY = 1440;
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** The minutes of the day a window covers (an end before the start runs past midnight). */
const covered = (start: number, end: number, minute: number) =>
  start < end ? start <= minute && minute < end : start > end && (minute >= start || minute < end);

describe('the sitting at an instant', () => {
  const arbService = fc.record({
    Orden: fc.integer({ min: 1, max: 9 }),
    start: fc.integer({ min: 0, max: DAY - 1 }),
    end: fc.integer({ min: 0, max: DAY - 1 }),
  });
  const arbInstant = fc.date({
    min: new Date('2024-01-01T00:00:00Z'),
    max: new Date('2027-12-31T23:59:59Z'),
    noInvalidDate: true,
  });

  it('is the first service by order covering the wall clock, on the day its window opened', () => {
    fc.assert(
      fc.property(
        fc.array(arbService, { minLength: 1, maxLength: 5 }),
        arbInstant,
        fc.constantFrom(LIMA, 'America/Santiago'),
        (specs, at, zone) => {
          const services = specs.map((s, i) =>
            service({ IdServicio: i + 1, Orden: s.Orden, HoraInicio: hhmm(s.start), HoraFin: hhmm(s.end) }),
          );
          const parts = Object.fromEntries(
            new Intl.DateTimeFormat('en-CA', {
              timeZone: zone,
              year: 'numeric',
              month: '2-digit',
              day: '2-digit',
              hour: '2-digit',
              minute: '2-digit',
              hourCycle: 'h23',
            })
              .formatToParts(at)
              .map((p) => [p.type, p.value]),
          );
          const date = `${parts.year}-${parts.month}-${parts.day}`;
          const minute = Number(parts.hour) * 60 + Number(parts.minute);
          const expected = [...specs.entries()]
            .filter(([, s]) => covered(s.start, s.end, minute))
            .sort(([ia, a], [ib, b]) => a.Orden - b.Orden || a.start - b.start || ia - ib)[0];
          const sitting = sittingAt(services, at, zone);
          if (!expected) return sitting === undefined;
          const [index, spec] = expected;
          const previous = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
          const day = spec.start > spec.end && minute < spec.end ? previous : date;
          return (
            sitting?.service.Orden === spec.Orden &&
            sitting.day === day &&
            (sitting.service.IdServicio === index + 1 || sitting.service.HoraInicio === hhmm(spec.start))
          );
        },
      ),
    );
  });

  it('puts the minutes after midnight of a crossing service in the day before, and its end outside', () => {
    expect(sittingAt([NIGHT], lima('2025-03-11T00:40'), LIMA)).toMatchObject({
      day: '2025-03-10',
      weekday: 1,
    });
    expect(sittingAt([NIGHT], lima('2025-03-10T23:30'), LIMA)).toMatchObject({ day: '2025-03-10' });
    expect(sittingAt([NIGHT], lima('2025-03-11T01:59'), LIMA)?.day).toBe('2025-03-10');
    expect(sittingAt([NIGHT], lima('2025-03-11T02:00'), LIMA)).toBeUndefined();
    expect(sittingAt([LUNCH], lima('2025-03-10T14:29'), LIMA)).toBeDefined();
    expect(sittingAt([LUNCH], lima('2025-03-10T14:30'), LIMA)).toBeUndefined();
    // Chile's daylight saving: 12:00 is lunch in summer and in winter.
    expect(sittingAt([LUNCH], new Date('2025-01-15T15:00:00Z'), 'America/Santiago')).toBeDefined();
    expect(sittingAt([LUNCH], new Date('2025-07-15T16:00:00Z'), 'America/Santiago')).toBeDefined();
  });

  it('takes an overlapping service by its order, not its place in the list', () => {
    const early = service({ IdServicio: 1, Orden: 3, HoraInicio: '11:00', HoraFin: '15:00' });
    expect(sittingAt([early, LUNCH], lima('2025-03-10T12:00'), LIMA)?.service.IdServicio).toBe(
      LUNCH.IdServicio,
    );
    expect(
      sittingAt([{ ...LUNCH, Activo: 'N' }, early], lima('2025-03-10T12:00'), LIMA)?.service.IdServicio,
    ).toBe(1);
  });
});
