import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Credential,
  type DecisionInput,
  decide,
  type Holder,
  intervalCovers,
  localTime,
  type PersonHolder,
  REASONS,
  type ReasonCode,
  type Restriction,
  reasonMessageKey,
  type ScheduleInterval,
  type VehicleHolder,
  type Weekday,
} from '../../src/shared/access/decision.js';
import { lookup, type Messages, translate } from '../../src/shared/i18n.js';

const LIMA = 'America/Lima';
const SANTIAGO = 'America/Santiago';
const WEEK: Weekday[] = [1, 2, 3, 4, 5, 6, 7];
const DAY = 1440;

/** An instant given as Lima wall-clock time (UTC-5 all year). */
const lima = (local: string) => new Date(`${local}:00-05:00`);

const interval = (
  IdHorario: number,
  Dia: Weekday,
  HoraInicio: string,
  HoraFin: string,
): ScheduleInterval => ({
  IdHorario,
  Dia,
  HoraInicio,
  HoraFin,
  Activo: 'S',
});

/**
 * A worker with a card, accredited in division 1, whose profile 1 opens door 10 from 06:00 to 18:00 every
 * day; profile 2 (not assigned) opens the same door on a night shift stored the way the screens store it.
 * Monday 10 March 2025, 10:00 in Lima: allowed.
 */
function baseline(): DecisionInput {
  return {
    door: { IdPuerta: 10, IdDivision: 1, IdZona: 5, Sentido: 'A', Activo: 'S' },
    direction: 'E',
    at: lima('2025-03-10T10:00'),
    timeZone: LIMA,
    presented: { kind: 'credential', Numero: 'C-100' },
    credential: {
      IdPersona: 100,
      Numero: 'C-100',
      FechaInicio: '2024-01-01',
      FechaFin: '2026-12-31',
      Activo: 'S',
    },
    holder: {
      kind: 'person',
      person: { IdPersona: 100, Condicion: 'T', Inactivo: 'N', ValidarRequisitosAcceso: 'S' },
      accreditations: [
        { IdDivision: 1, IdContrato: 7, FechaInicio: '2024-01-01', FechaFin: '2026-12-31', Estado: 'A' },
      ],
      requirements: [
        { IdRequisito: 3, Requisito: 'EMO', Obligatorio: 'S', FechaVencimiento: '2026-12-31' },
        { IdRequisito: 4, Requisito: 'DNI', Obligatorio: 'S' },
      ],
      exonerations: [],
      assignments: [
        { IdPerfilAcceso: 1, FechaInicio: '2024-01-01', FechaFin: '2026-12-31', Temporal: 'N', Activo: 'S' },
      ],
      restrictions: [],
    },
    site: {
      profiles: [
        { IdPerfilAcceso: 1, Grupos: [1], ValidarRequisitos: 'S', Activo: 'S' },
        { IdPerfilAcceso: 2, Grupos: [2], ValidarRequisitos: 'S', Activo: 'S' },
      ],
      groups: [
        { IdGrupoAcceso: 1, IdHorario: 1, Puertas: [10, 11], Activo: 'S' },
        { IdGrupoAcceso: 2, IdHorario: 2, Puertas: [10], Activo: 'S' },
      ],
      schedules: [
        { IdHorario: 1, Activo: 'S' },
        { IdHorario: 2, Activo: 'S' },
      ],
      intervals: [
        ...WEEK.map((day) => interval(1, day, '06:00', '18:00')),
        ...WEEK.flatMap((day) => [interval(2, day, '00:00', '07:00'), interval(2, day, '19:00', '23:59')]),
      ],
      zones: [{ IdZona: 1 }, { IdZona: 5, IdZonaPadre: 1 }],
    },
  };
}

const person = (input: DecisionInput) => input.holder as PersonHolder;
const card = (input: DecisionInput) => input.credential as Credential;
const restriction = (over: Partial<Restriction>): Restriction => ({
  IdDivision: 1,
  DiaCompleto: 'S',
  FechaInicio: '2025-03-01',
  Activo: 'S',
  Motivo: 'SANCIÓN',
  ...over,
});
const temporaryNight = {
  IdPerfilAcceso: 2,
  FechaInicio: '2025-03-01',
  FechaFin: '2025-03-20',
  Temporal: 'S',
} as const;
const asVehicle = (input: DecisionInput) => {
  const { accreditations, requirements, assignments } = person(input);
  input.presented = { kind: 'plate', Placa: 'ABC-123' };
  input.credential = undefined;
  input.holder = {
    kind: 'vehicle',
    vehicle: { IdVehiculo: 9, Estado: 'A' },
    accreditations,
    requirements,
    assignments,
  };
};

/** The site requires course 1 at the zones and doors given; the person holds a course to a day. */
const requireCourse = (f: DecisionInput, where: { zones?: number[]; doors?: number[] }) => {
  f.site.qualifications = [
    {
      kind: 'induction',
      id: 1,
      name: 'TRABAJOS EN ALTURA',
      doors: where.doors ?? [],
      zones: where.zones ?? [],
    },
  ];
};
const holdCourse = (f: DecisionInput, until: string, id = 1) => {
  person(f).qualifications = [{ kind: 'induction', id, until }];
};

interface Row {
  name: string;
  change: (input: DecisionInput) => void;
  reason: ReasonCode;
  allow: boolean;
}

const rows: Row[] = [
  { name: 'the baseline', change: () => {}, reason: 'ALLOWED', allow: true },
  {
    name: 'a document typed in instead of the card',
    change: (f) => {
      f.presented = { kind: 'document', Documento: '40123456' };
      f.credential = undefined;
    },
    reason: 'ALLOWED',
    allow: true,
  },
  { name: 'a vehicle by its plate', change: asVehicle, reason: 'ALLOWED', allow: true },
  {
    name: 'an exit inside the schedule',
    change: (f) => {
      f.direction = 'S';
    },
    reason: 'ALLOWED',
    allow: true,
  },

  // 0. the door
  {
    name: 'a door out of service',
    change: (f) => {
      f.door.Activo = 'N';
    },
    reason: 'DOOR_INACTIVE',
    allow: false,
  },
  {
    name: 'an exit through an entry-only door',
    change: (f) => {
      f.door.Sentido = 'E';
      f.direction = 'S';
    },
    reason: 'WRONG_DIRECTION',
    allow: false,
  },
  {
    name: 'an entry through an exit-only door',
    change: (f) => {
      f.door.Sentido = 'S';
    },
    reason: 'WRONG_DIRECTION',
    allow: false,
  },

  // 1. identity
  {
    name: 'a card number not on file',
    change: (f) => {
      f.credential = undefined;
    },
    reason: 'UNKNOWN',
    allow: false,
  },
  {
    name: 'a document of nobody registered',
    change: (f) => {
      f.presented = { kind: 'document', Documento: '99999999' };
      f.holder = undefined;
    },
    reason: 'UNKNOWN',
    allow: false,
  },
  {
    name: 'a card that belongs to someone else',
    change: (f) => {
      f.credential = { ...card(f), IdPersona: 200 };
    },
    reason: 'UNKNOWN',
    allow: false,
  },
  {
    name: 'a plate answered with a person',
    change: (f) => {
      f.presented = { kind: 'plate', Placa: 'ABC-123' };
    },
    reason: 'UNKNOWN',
    allow: false,
  },
  {
    name: 'an unknown card on the way out (nobody to record)',
    change: (f) => {
      f.credential = undefined;
      f.direction = 'S';
    },
    reason: 'UNKNOWN',
    allow: false,
  },
  {
    name: 'an inactivated card',
    change: (f) => {
      card(f).Activo = 'N';
    },
    reason: 'CREDENTIAL_INACTIVE',
    allow: false,
  },
  {
    name: 'a card valid from tomorrow',
    change: (f) => {
      card(f).FechaInicio = '2025-03-11';
    },
    reason: 'CREDENTIAL_NOT_YET_VALID',
    allow: false,
  },
  {
    name: 'a card that expired yesterday',
    change: (f) => {
      card(f).FechaFin = '2025-03-09';
    },
    reason: 'CREDENTIAL_EXPIRED',
    allow: false,
  },
  {
    name: 'a card on its last day',
    change: (f) => {
      card(f).FechaFin = '2025-03-10';
    },
    reason: 'ALLOWED',
    allow: true,
  },

  // 2. accreditation
  {
    name: 'no accreditation',
    change: (f) => {
      person(f).accreditations = [];
    },
    reason: 'NOT_ACCREDITED',
    allow: false,
  },
  {
    name: 'an accreditation of another division only',
    change: (f) => {
      person(f).accreditations[0].IdDivision = 2;
    },
    reason: 'NOT_ACCREDITED',
    allow: false,
  },
  {
    name: 'an accreditation that ended',
    change: (f) => {
      person(f).accreditations[0].FechaFin = '2025-03-09';
    },
    reason: 'ACCREDITATION_OUT_OF_DATES',
    allow: false,
  },
  {
    name: 'an accreditation suspended by an expired requirement',
    change: (f) => {
      person(f).accreditations[0].Estado = 'S';
    },
    reason: 'ACCREDITATION_SUSPENDED',
    allow: false,
  },
  {
    name: 'an accreditation terminated (demobilised)',
    change: (f) => {
      person(f).accreditations[0].Estado = 'T';
    },
    reason: 'ACCREDITATION_TERMINATED',
    allow: false,
  },
  {
    name: 'a terminated contract beside an active one',
    change: (f) => {
      person(f).accreditations.push({
        IdDivision: 1,
        IdContrato: 8,
        FechaInicio: '2024-01-01',
        FechaFin: '2026-12-31',
        Estado: 'T',
      });
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an exit after the accreditation ended (let out, reason kept)',
    change: (f) => {
      person(f).accreditations[0].FechaFin = '2025-03-09';
      f.direction = 'S';
    },
    reason: 'ACCREDITATION_OUT_OF_DATES',
    allow: true,
  },

  // 3. requirements
  {
    name: 'a mandatory requirement expired',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
    },
    reason: 'REQUIREMENT_EXPIRED',
    allow: false,
  },
  {
    name: 'a vehicle past the due day of a blocking maintenance',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).maintenance = [
        { Tipo: 'REVISIÓN TÉCNICA', Vence: '2025-03-12' },
        { Tipo: 'PREVENTIVO', Vence: '2025-03-09' },
      ];
    },
    reason: 'MAINTENANCE_OVERDUE',
    allow: false,
  },
  {
    name: 'a haul truck without a driver, its type needing an internal licence',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).licenceType = { IdTipoVehiculo: 9, Tipo: 'CAMIÓN MINERO' };
    },
    reason: 'INTERNAL_LICENCE_MISSING',
    allow: false,
  },
  {
    name: 'a haul truck whose driver’s internal licence is of another type or expired',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).licenceType = { IdTipoVehiculo: 9, Tipo: 'CAMIÓN MINERO' };
      f.driver = {
        Nombre: 'QUISPE, JUAN',
        licences: [
          { IdTipoVehiculo: 3, Vence: '2026-01-01' },
          { IdTipoVehiculo: 9, Vence: '2025-03-09' },
        ],
      };
    },
    reason: 'INTERNAL_LICENCE_MISSING',
    allow: false,
  },
  {
    name: 'a haul truck whose driver holds the licence to its last day',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).licenceType = { IdTipoVehiculo: 9, Tipo: 'CAMIÓN MINERO' };
      f.driver = { Nombre: 'QUISPE, JUAN', licences: [{ IdTipoVehiculo: 9, Vence: '2025-03-10' }] };
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'a haul truck leaving without a driver (let out, reason kept)',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).licenceType = { IdTipoVehiculo: 9, Tipo: 'CAMIÓN MINERO' };
      f.direction = 'S';
    },
    reason: 'INTERNAL_LICENCE_MISSING',
    allow: true,
  },
  {
    name: 'a vehicle on the due day of its maintenance',
    change: (f) => {
      asVehicle(f);
      (f.holder as VehicleHolder).maintenance = [{ Tipo: 'PREVENTIVO', Vence: '2025-03-10' }];
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'a mandatory requirement on its last day',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-10';
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an optional requirement expired',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      person(f).requirements[0].Obligatorio = 'N';
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an expired requirement under an exoneration',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      person(f).exonerations = [
        { IdDivision: 1, IdRequisito: 3, FechaInicio: '2025-03-09', FechaFin: '2025-03-15', Activo: 'S' },
      ];
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an exoneration of another requirement, another division or ended',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      person(f).exonerations = [
        { IdDivision: 1, IdRequisito: 4, FechaInicio: '2025-03-09', FechaFin: '2025-03-15', Activo: 'S' },
        { IdDivision: 2, IdRequisito: 3, FechaInicio: '2025-03-09', FechaFin: '2025-03-15', Activo: 'S' },
        { IdDivision: 1, IdRequisito: 3, FechaInicio: '2025-03-01', FechaFin: '2025-03-09', Activo: 'S' },
        { IdDivision: 1, IdRequisito: 3, FechaInicio: '2025-03-09', FechaFin: '2025-03-15', Activo: 'N' },
      ];
    },
    reason: 'REQUIREMENT_EXPIRED',
    allow: false,
  },
  {
    name: 'an expired requirement of a person not checked at the gate',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      person(f).person.ValidarRequisitosAcceso = 'N';
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an expired requirement under a profile that does not check requirements',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      f.site.profiles[0].ValidarRequisitos = 'N';
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an expired vehicle insurance',
    change: (f) => {
      asVehicle(f);
      (f.holder as Holder).requirements[0].FechaVencimiento = '2025-03-09';
    },
    reason: 'REQUIREMENT_EXPIRED',
    allow: false,
  },

  // 4. qualifications (a course the door's zone, a zone it sits in, or the door requires)
  {
    name: 'a course of a zone the door’s zone sits in, not passed',
    change: (f) => requireCourse(f, { zones: [1] }),
    reason: 'INDUCTION_MISSING',
    allow: false,
  },
  {
    name: 'a course of the door’s zone, passed and valid to today',
    change: (f) => {
      requireCourse(f, { zones: [5] });
      holdCourse(f, '2025-03-10');
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'a course of this door, passed but expired yesterday',
    change: (f) => {
      requireCourse(f, { doors: [10] });
      holdCourse(f, '2025-03-09');
    },
    reason: 'INDUCTION_MISSING',
    allow: false,
  },
  {
    name: 'a course of another door, or of a zone inside the door’s, not passed',
    change: (f) => {
      f.site.zones.push({ IdZona: 6, IdZonaPadre: 5 });
      requireCourse(f, { doors: [11], zones: [6] });
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'another course passed than the one the door requires',
    change: (f) => {
      requireCourse(f, { zones: [5] });
      holdCourse(f, '2026-12-31', 2);
    },
    reason: 'INDUCTION_MISSING',
    allow: false,
  },
  {
    name: 'a vehicle at a door whose zone requires a course',
    change: (f) => {
      asVehicle(f);
      requireCourse(f, { zones: [5] });
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'an exit without the course the door requires (let out, reason kept)',
    change: (f) => {
      f.direction = 'S';
      requireCourse(f, { zones: [5] });
    },
    reason: 'INDUCTION_MISSING',
    allow: true,
  },
  {
    name: 'a course is not waived for a person or profile that skips requirements',
    change: (f) => {
      person(f).person.ValidarRequisitosAcceso = 'N';
      f.site.profiles[0].ValidarRequisitos = 'N';
      requireCourse(f, { zones: [5] });
    },
    reason: 'INDUCTION_MISSING',
    allow: false,
  },
  {
    name: 'an expired requirement is named before a missing course',
    change: (f) => {
      person(f).requirements[0].FechaVencimiento = '2025-03-09';
      requireCourse(f, { zones: [5] });
    },
    reason: 'REQUIREMENT_EXPIRED',
    allow: false,
  },
  {
    name: 'a missing course is named before a door no group opens',
    change: (f) => {
      person(f).assignments = [];
      requireCourse(f, { doors: [10] });
    },
    reason: 'INDUCTION_MISSING',
    allow: false,
  },

  // 5. groups and schedule
  {
    name: 'no access profile',
    change: (f) => {
      person(f).assignments = [];
    },
    reason: 'NO_ACCESS_GROUP',
    allow: false,
  },
  {
    name: 'a profile assignment that ended',
    change: (f) => {
      person(f).assignments[0].FechaFin = '2025-03-09';
    },
    reason: 'NO_ACCESS_GROUP',
    allow: false,
  },
  {
    name: 'a profile whose groups do not open this door',
    change: (f) => {
      f.site.groups[0].Puertas = [11];
    },
    reason: 'NO_ACCESS_GROUP',
    allow: false,
  },
  {
    name: 'an inactive profile',
    change: (f) => {
      f.site.profiles[0].Activo = 'N';
    },
    reason: 'NO_ACCESS_GROUP',
    allow: false,
  },
  {
    name: 'after the schedule ends',
    change: (f) => {
      f.at = lima('2025-03-10T18:00');
    },
    reason: 'OUTSIDE_SCHEDULE',
    allow: false,
  },
  {
    name: 'an inactive schedule',
    change: (f) => {
      f.site.schedules[0].Activo = 'N';
    },
    reason: 'OUTSIDE_SCHEDULE',
    allow: false,
  },
  {
    name: 'an exit after the schedule ends (never locked inside)',
    change: (f) => {
      f.at = lima('2025-03-10T22:30');
      f.direction = 'S';
    },
    reason: 'OUTSIDE_SCHEDULE',
    allow: true,
  },

  // 6. restrictions
  {
    name: 'a restriction on the whole division',
    change: (f) => {
      person(f).restrictions = [restriction({})];
    },
    reason: 'RESTRICTED',
    allow: false,
  },
  {
    name: 'a restriction on a zone that contains the door’s zone',
    change: (f) => {
      person(f).restrictions = [restriction({ IdZona: 1 })];
    },
    reason: 'RESTRICTED',
    allow: false,
  },
  {
    name: 'a restriction on this door',
    change: (f) => {
      person(f).restrictions = [restriction({ IdZona: 5, IdPuerta: 10 })];
    },
    reason: 'RESTRICTED',
    allow: false,
  },
  {
    name: 'a restriction during these hours',
    change: (f) => {
      person(f).restrictions = [restriction({ DiaCompleto: 'N', HoraInicio: '08:00', HoraFin: '12:00' })];
    },
    reason: 'RESTRICTED',
    allow: false,
  },
  {
    name: 'a part-day restriction whose hours are missing (read as the whole day)',
    change: (f) => {
      person(f).restrictions = [restriction({ DiaCompleto: 'N' })];
    },
    reason: 'RESTRICTED',
    allow: false,
  },
  {
    name: 'restrictions elsewhere, at other hours, lifted, inactive or in another division',
    change: (f) => {
      person(f).restrictions = [
        restriction({ IdZona: 5, IdPuerta: 11 }),
        restriction({ IdZona: 6 }),
        restriction({ DiaCompleto: 'N', HoraInicio: '14:00', HoraFin: '16:00' }),
        restriction({ FechaFin: '2025-03-09' }),
        restriction({ FechaInicio: '2025-03-11' }),
        restriction({ Activo: 'N' }),
        restriction({ IdDivision: 2 }),
      ];
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'a restricted person on the way out',
    change: (f) => {
      person(f).restrictions = [restriction({})];
      f.direction = 'S';
    },
    reason: 'RESTRICTED',
    allow: true,
  },

  // 7. temporary assignments
  {
    name: 'a temporary assignment only, within its dates',
    change: (f) => {
      person(f).assignments = [{ ...temporaryNight, IdPerfilAcceso: 1, Activo: 'S' }];
    },
    reason: 'ALLOWED_TEMPORARY',
    allow: true,
  },
  {
    name: 'a temporary night cover added to a day profile, at night',
    change: (f) => {
      person(f).assignments.push({ ...temporaryNight, Activo: 'S' });
      f.at = lima('2025-03-10T23:30');
    },
    reason: 'ALLOWED_TEMPORARY',
    allow: true,
  },
  {
    name: 'a temporary night cover does not take the day profile away',
    change: (f) => {
      person(f).assignments.push({ ...temporaryNight, Activo: 'S' });
    },
    reason: 'ALLOWED',
    allow: true,
  },
  {
    name: 'a temporary assignment that ended',
    change: (f) => {
      person(f).assignments = [{ ...temporaryNight, FechaFin: '2025-03-09', Activo: 'S' }];
    },
    reason: 'TEMPORARY_ENDED',
    allow: false,
  },
  {
    name: 'a temporary assignment does not lift a restriction',
    change: (f) => {
      person(f).assignments = [{ ...temporaryNight, IdPerfilAcceso: 1, Activo: 'S' }];
      person(f).restrictions = [restriction({})];
    },
    reason: 'RESTRICTED',
    allow: false,
  },

  // 8. condition
  {
    name: 'a ceased worker',
    change: (f) => {
      person(f).person.Condicion = 'C';
    },
    reason: 'PERSON_CEASED',
    allow: false,
  },
  {
    name: 'an inactive person',
    change: (f) => {
      person(f).person.Inactivo = 'S';
    },
    reason: 'PERSON_INACTIVE',
    allow: false,
  },
  {
    name: 'an inactive vehicle',
    change: (f) => {
      asVehicle(f);
      if (f.holder?.kind === 'vehicle') f.holder.vehicle.Estado = 'I';
    },
    reason: 'VEHICLE_INACTIVE',
    allow: false,
  },
  {
    name: 'several faults at once: the earliest check names the reason',
    change: (f) => {
      card(f).Activo = 'N';
      person(f).accreditations = [];
      person(f).person.Condicion = 'C';
    },
    reason: 'CREDENTIAL_INACTIVE',
    allow: false,
  },
];

const read = (language: string) => JSON.parse(readFileSync(`locales/${language}.json`, 'utf8')) as Messages;
const locales = { es: read('es'), en: read('en') };

describe('the gate decision', () => {
  it.each(rows)('$name: $reason', ({ change, reason, allow }) => {
    const input = baseline();
    change(input);
    const decision = decide(input);
    expect({ reason: decision.reason, allow: decision.allow }).toEqual({ reason, allow });
    expect(decision.messageKey).toBe(reasonMessageKey(reason));
    // An exit let through for a reason that denies an entry says so.
    expect(decision.lenientExit ?? false).toBe(allow && !reason.startsWith('ALLOWED'));
    // Every placeholder of the message is filled, in both languages.
    for (const messages of Object.values(locales))
      expect(translate(messages, decision.messageKey, decision.params)).not.toMatch(/%\{/);
  });

  it('has a row for every reason', () => {
    expect(new Set(rows.map((row) => row.reason))).toEqual(new Set(REASONS));
  });

  it.each(Object.entries(locales))('every reason has its message in %s', (_language, messages) => {
    for (const reason of REASONS) expect(lookup(messages, reasonMessageKey(reason)), reason).toBeTruthy();
  });

  it('names the course the door requires and the person lacks, in both languages', () => {
    const input = baseline();
    requireCourse(input, { zones: [1] });
    const decision = decide(input);
    expect(decision.params).toEqual({ name: 'TRABAJOS EN ALTURA' });
    for (const messages of Object.values(locales))
      expect(translate(messages, decision.messageKey, decision.params)).toContain('TRABAJOS EN ALTURA');
  });

  it('a night shift stored as 19:00–23:59 and 00:00–07:00 has no gap at midnight', () => {
    const input = baseline();
    person(input).assignments = [{ ...temporaryNight, Temporal: 'N', Activo: 'S' }];
    for (const [at, reason] of [
      ['2025-03-10T18:59', 'OUTSIDE_SCHEDULE'],
      ['2025-03-10T19:00', 'ALLOWED'],
      ['2025-03-10T23:59', 'ALLOWED'],
      ['2025-03-11T00:00', 'ALLOWED'],
      ['2025-03-11T06:59', 'ALLOWED'],
      ['2025-03-11T07:00', 'OUTSIDE_SCHEDULE'],
    ] as const) {
      input.at = lima(at);
      expect(decide(input).reason, at).toBe(reason);
    }
    input.at = new Date('2025-03-10T23:59:45-05:00');
    expect(decide(input).reason).toBe('ALLOWED');
  });
});

// ---- Schedule arithmetic, checked against a model that knows nothing of days: a week is a ring of
// 10 080 minutes and an interval is an arc of it, starting at its day and hour.

const WEEK_MINUTES = 7 * DAY;
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const arbMinute = fc.integer({ min: 0, max: DAY - 1 });
const arbDay = fc.constantFrom(...WEEK);
const arbInterval = fc.record({ Dia: arbDay, HoraInicio: arbMinute.map(hhmm), HoraFin: arbMinute.map(hhmm) });

type Span = Pick<ScheduleInterval, 'Dia' | 'HoraInicio' | 'HoraFin'>;
const toMinutes = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3));
/** Where the arc starts in the week and how long it is (an end of 23:59 means midnight). */
function arc({ Dia, HoraInicio, HoraFin }: Span) {
  const start = toMinutes(HoraInicio);
  const end = HoraFin === '23:59' ? DAY : toMinutes(HoraFin);
  return { from: (Dia - 1) * DAY + start, length: (end - start + DAY) % DAY || (end === start ? 0 : DAY) };
}
const onArc = (span: Span, weekMinute: number) => {
  const { from, length } = arc(span);
  return (((weekMinute - from) % WEEK_MINUTES) + WEEK_MINUTES) % WEEK_MINUTES < length;
};
const weekMinuteOf = (day: Weekday, minute: number) => (day - 1) * DAY + minute;

/** Lima wall clock without Intl: UTC minus five hours (Peru has kept no daylight saving since 1994). */
function limaByHand(at: Date) {
  const shifted = new Date(at.getTime() - 5 * 3600_000);
  return {
    date: shifted.toISOString().slice(0, 10),
    day: (shifted.getUTCDay() || 7) as Weekday,
    minute: shifted.getUTCHours() * 60 + shifted.getUTCMinutes(),
  };
}

/** Monday 10 March 2025, 00:00 in Lima, plus a number of minutes. */
const mondayPlus = (minutes: number) => new Date(lima('2025-03-10T00:00').getTime() + minutes * 60_000);

/** The baseline with schedule 1 replaced by the given intervals. */
function withSchedule(spans: Span[], at: Date, timeZone = LIMA): DecisionInput {
  const input = baseline();
  input.site.intervals = spans.map((s) => ({ ...s, IdHorario: 1, Activo: 'S' }));
  input.at = at;
  input.timeZone = timeZone;
  return input;
}

describe('schedule arithmetic (properties)', () => {
  it('an interval covers exactly its arc of the week, crossing midnight and Sunday night alike', () => {
    fc.assert(
      fc.property(arbInterval, arbDay, arbMinute, (span, day, minute) => {
        expect(intervalCovers(span, day, minute)).toBe(onArc(span, weekMinuteOf(day, minute)));
      }),
      { numRuns: 2000 },
    );
  });

  it('an interval crossing midnight covers from its start on its day to its end the next morning, nothing else', () => {
    const crossing = arbInterval.filter((s) => toMinutes(s.HoraFin) < toMinutes(s.HoraInicio));
    fc.assert(
      fc.property(crossing, (span) => {
        const start = toMinutes(span.HoraInicio);
        const end = toMinutes(span.HoraFin);
        const next = ((span.Dia % 7) + 1) as Weekday;
        const wrong: string[] = [];
        let covered = 0;
        for (const day of WEEK)
          for (let minute = 0; minute < DAY; minute++) {
            const expected = (day === span.Dia && minute >= start) || (day === next && minute < end);
            if (intervalCovers(span, day, minute) !== expected) wrong.push(`${day} ${hhmm(minute)}`);
            if (expected) covered++;
          }
        expect(wrong).toEqual([]);
        expect(covered).toBe(DAY - start + end);
      }),
      { numRuns: 50 },
    );
  });

  it('Lima local time is UTC-5 on every day, weekday and midnight included', () => {
    const arbInstant = fc.date({
      min: new Date('1995-01-01T00:00:00Z'),
      max: new Date('2040-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(arbInstant, (at) => {
        expect(localTime(at, LIMA)).toEqual(limaByHand(at));
      }),
      { numRuns: 2000 },
    );
  });

  it('a time inside an interval (or the previous day’s overnight interval) is let in', () => {
    const arbInside = arbInterval
      .filter((span) => arc(span).length > 0)
      .chain((span) => fc.tuple(fc.constant(span), fc.integer({ min: 0, max: arc(span).length - 1 })));
    fc.assert(
      fc.property(arbInside, fc.integer({ min: 0, max: 59 }), ([span, offset], second) => {
        const at = new Date(mondayPlus(arc(span).from + offset).getTime() + second * 1000);
        expect(decide(withSchedule([span], at)).reason).toBe('ALLOWED');
      }),
      { numRuns: 1000 },
    );
  });

  it('an interval never lets in on a day other than its own or, crossing midnight, the next', () => {
    const arbElsewhere = arbInterval.chain((span) =>
      fc.tuple(
        fc.constant(span),
        fc.constantFrom(...WEEK.filter((d) => d !== span.Dia && d !== (span.Dia % 7) + 1)),
        arbMinute,
      ),
    );
    fc.assert(
      fc.property(arbElsewhere, ([span, day, minute]) => {
        const at = mondayPlus(weekMinuteOf(day, minute));
        expect(decide(withSchedule([span], at)).reason).toBe('OUTSIDE_SCHEDULE');
      }),
      { numRuns: 1000 },
    );
  });

  it('any instant of any week: let in exactly when one of the intervals covers the Lima wall clock', () => {
    const arbInstant = fc.date({
      min: new Date('2024-01-01T05:00:00Z'),
      max: new Date('2026-12-31T04:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(fc.array(arbInterval, { minLength: 1, maxLength: 4 }), arbInstant, (spans, at) => {
        const { day, minute } = limaByHand(at);
        const covered = spans.some((span) => onArc(span, weekMinuteOf(day, minute)));
        expect(decide(withSchedule(spans, at)).reason).toBe(covered ? 'ALLOWED' : 'OUTSIDE_SCHEDULE');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('Santiago’s daylight saving', () => {
  // Chile left summer time at 00:00 on Sunday 7 April 2024 (UTC-3 → UTC-4) and took it again at 00:00
  // on Sunday 8 September 2024 (UTC-4 → UTC-3). 12:00 UTC is 09:00 or 08:00 on the wall clock.
  const from0830 = WEEK.map((Dia) => ({ Dia, HoraInicio: '08:30', HoraFin: '17:00' }));
  const cases = [
    ['2024-04-06T12:00:00Z', { date: '2024-04-06', day: 6, minute: 9 * 60 }, 'ALLOWED'],
    ['2024-04-07T12:00:00Z', { date: '2024-04-07', day: 7, minute: 8 * 60 }, 'OUTSIDE_SCHEDULE'],
    ['2024-09-07T12:00:00Z', { date: '2024-09-07', day: 6, minute: 8 * 60 }, 'OUTSIDE_SCHEDULE'],
    ['2024-09-08T12:00:00Z', { date: '2024-09-08', day: 7, minute: 9 * 60 }, 'ALLOWED'],
  ] as const;

  it.each(cases)('%s is %o on the wall clock: %s', (instant, wall, reason) => {
    const at = new Date(instant);
    expect(localTime(at, SANTIAGO)).toEqual(wall);
    expect(decide(withSchedule(from0830, at, SANTIAGO)).reason).toBe(reason);
  });

  it('the day boundary follows the wall clock on both change nights', () => {
    // April: the hour before midnight is lived twice, both times still Saturday.
    expect(localTime(new Date('2024-04-07T02:30:00Z'), SANTIAGO)).toEqual({
      date: '2024-04-06',
      day: 6,
      minute: 23 * 60 + 30,
    });
    expect(localTime(new Date('2024-04-07T03:30:00Z'), SANTIAGO)).toEqual({
      date: '2024-04-06',
      day: 6,
      minute: 23 * 60 + 30,
    });
    expect(localTime(new Date('2024-04-07T04:00:00Z'), SANTIAGO)).toEqual({
      date: '2024-04-07',
      day: 7,
      minute: 0,
    });
    // September: 00:00–00:59 does not exist; a minute after Saturday 23:59 it is Sunday 01:00.
    expect(localTime(new Date('2024-09-08T03:59:00Z'), SANTIAGO)).toEqual({
      date: '2024-09-07',
      day: 6,
      minute: 23 * 60 + 59,
    });
    expect(localTime(new Date('2024-09-08T04:00:00Z'), SANTIAGO)).toEqual({
      date: '2024-09-08',
      day: 7,
      minute: 60,
    });
  });

  it('a Saturday night shift in Santiago covers the repeated hour and ends by the wall clock on Sunday', () => {
    const night = [{ Dia: 6 as Weekday, HoraInicio: '22:00', HoraFin: '06:00' }];
    const at = (instant: string) => decide(withSchedule(night, new Date(instant), SANTIAGO)).reason;
    expect(at('2024-04-07T01:00:00Z')).toBe('ALLOWED'); // Saturday 22:00, UTC-3
    expect(at('2024-04-07T03:30:00Z')).toBe('ALLOWED'); // Saturday 23:30 again, UTC-4
    expect(at('2024-04-07T09:59:00Z')).toBe('ALLOWED'); // Sunday 05:59, UTC-4
    expect(at('2024-04-07T10:00:00Z')).toBe('OUTSIDE_SCHEDULE'); // Sunday 06:00
  });
});
