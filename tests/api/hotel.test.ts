import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseLapsed } from '../../src/server/features/hotel/releases.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { cellState } from '../../src/shared/hotel.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { accreditCrew } from '../support/lodging.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/hotel';

describe.each(DIALECTS)('camp lodging on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const today = siteDate('PE');
  let camp: number;
  let northCamp: number;
  let crew: { people: number[]; accreditations: number[]; contract: number };
  /** Beds of the San Gabriel camp's bunk rooms (hot beds), of a suite (exclusive), of the women's block. */
  const beds: Record<string, number> = {};

  const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens[who], payload });
  const db = () => t.db.database.db;
  const reserve = (who: string, body: object) =>
    as(who, 'POST', `${BASE}/reservas`, { IdCampamento: camp, ...body });
  const bedId = async (code: string) =>
    Number(
      (
        (await db()
          .selectFrom('hotel_bed')
          .select('IdCama')
          .where('Codigo', '=', code)
          .executeTakeFirstOrThrow()) as Json
      ).IdCama,
    );
  const reservation = async (id: number) =>
    (await db()
      .selectFrom('hotel_reservation')
      .selectAll()
      .where('IdReserva', '=', id)
      .executeTakeFirstOrThrow()) as Json;
  const nights = async (id: number) =>
    (
      (await db()
        .selectFrom('hotel_bed_night')
        .select(['Fecha', 'Mitad'])
        .where('IdReserva', '=', id)
        .orderBy('Fecha')
        .execute()) as Json[]
    ).map((n) => `${n.Fecha}${n.Mitad}`);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    tokens.hotel = (await signIn(t.app, 'HOTELERO', { division: SOUTH })).accessToken;
    tokens.hotelNorth = (await signIn(t.app, 'HOTELERO', { division: NORTH })).accessToken;
    tokens.admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    tokens.adminNorth = (await signIn(t.app, 'ADMIN', { division: NORTH })).accessToken;
    tokens.requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    tokens.authoriser = (await signIn(t.app, 'AUTORIZADOR', { division: SOUTH })).accessToken;
    const camps = (await db()
      .selectFrom('hotel_camp')
      .select(['IdCampamento', 'Descripcion'])
      .execute()) as Json[];
    camp = camps.find((c) => c.Descripcion === 'CAMPAMENTO SAN GABRIEL').IdCampamento;
    northCamp = camps.find((c) => c.Descripcion === 'CAMPAMENTO CORDILLERA NORTE').IdCampamento;
    crew = await accreditCrew(db(), {
      company: 'SERMIPAC',
      division: 1,
      count: 70,
      prefix: `H${dialect[0].toUpperCase()}`,
      today,
    });
    beds.hot = await bedId('A-110-A');
    beds.hot2 = await bedId('A-110-B');
    beds.suite = await bedId('S-05-A');
    beds.women = await bedId('B-105-A');
    beds.out = await bedId('A-107-A');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lets in only a camp’s hotel administrator, and a requester for its own reservations', async () => {
    const mine = await as('hotel', 'GET', `${BASE}/campamentos`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.result.campamentos.map((c: Json) => c.Descripcion)).toEqual(['CAMPAMENTO SAN GABRIEL']);
    // The authoriser has no lodging screen; the administrator has them but runs no camp of the south.
    expect((await as('authoriser', 'GET', `${BASE}/tablero`)).status).toBe(403);
    // Their screens learn it from the camps' call, which answers without a refusal.
    const none = await as('admin', 'GET', `${BASE}/campamentos`);
    expect(none.status).toBe(200);
    expect(none.body.result).toMatchObject({ asignado: false, campamentos: [] });
    const notMine = await as('admin', 'GET', `${BASE}/tablero`);
    expect(notMine.status).toBe(403);
    expect(notMine.body.message).toBe('You are not assigned as hotel administrator.');
    const spanish = await call(t.app, {
      url: `${BASE}/tablero`,
      token: tokens.admin,
      headers: { 'accept-language': 'es' },
    });
    expect(spanish.body.message).toBe('No está asignado como administrador de hotel.');
    // The north's administrator runs the north's camp only: the south's camp is not theirs.
    expect((await as('adminNorth', 'GET', `${BASE}/tablero`)).status).toBe(200);
    const other = await as('adminNorth', 'GET', `${BASE}/disponibilidad?desde=${today}&IdCampamento=${camp}`);
    expect(other.status).toBe(403);
    const own = await as(
      'adminNorth',
      'GET',
      `${BASE}/disponibilidad?desde=${today}&IdCampamento=${northCamp}`,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(new Set(own.body.result.camas.map((b: Json) => b.Campamento))).toEqual(
      new Set(['CAMPAMENTO CORDILLERA NORTE']),
    );
    // The south's hotel administrator runs no camp of the north.
    expect((await as('hotelNorth', 'GET', `${BASE}/tablero`)).status).toBe(403);
    // A requester: its reservations, none of the administrator's calls.
    expect((await as('requester', 'GET', `${BASE}/reservas`)).status).toBe(200);
    expect((await as('requester', 'GET', `${BASE}/tablero`)).status).toBe(403);
    expect((await as('requester', 'GET', `${BASE}/disponibilidad?desde=${today}`)).status).toBe(403);
  });

  it('reserves a bed within the accreditation and the maximum stay, holding each night in the database', async () => {
    const [person] = crew.people;
    const made = await reserve('hotel', {
      IdPersona: person,
      IdCama: beds.hot,
      FechaInicio: today,
      FechaFin: addDays(today, 3),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.IdReserva;
    expect(await nights(id)).toEqual(
      [0, 1, 2].flatMap((d) => [`${addDays(today, d)}D`, `${addDays(today, d)}N`]),
    );
    // The same bed one of those nights: refused, naming the bed, nothing written.
    const before = await db()
      .selectFrom('hotel_reservation')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const twice = await reserve('hotel', {
      IdPersona: crew.people[1],
      IdCama: beds.hot,
      FechaInicio: addDays(today, 2),
      FechaFin: addDays(today, 5),
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/^Bed A-110-A is already booked or occupied/);
    // The same person in another bed the same night.
    const person2 = await reserve('hotel', {
      IdPersona: person,
      IdCama: beds.hot2,
      FechaInicio: addDays(today, 1),
      FechaFin: addDays(today, 2),
    });
    expect(person2.status).toBe(409);
    expect(person2.body.message).toMatch(/already has a bed booked on the night of/);
    const after = await db()
      .selectFrom('hotel_reservation')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Cancelled: its nights are free again.
    expect((await as('hotel', 'POST', `${BASE}/reservas/${id}/anular`, {})).status).toBe(200);
    expect(await nights(id)).toEqual([]);
    expect((await reservation(id)).Estado).toBe('A');
  });

  it('shares a hot bed between a day and a night turn, never an exclusive bed', async () => {
    const [, , a, b, c] = crew.people;
    const stay = { FechaInicio: addDays(today, 10), FechaFin: addDays(today, 14) };
    const day = await reserve('hotel', { IdPersona: a, IdCama: beds.hot2, Turno: 'D', ...stay });
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    const night = await reserve('hotel', { IdPersona: b, IdCama: beds.hot2, Turno: 'N', ...stay });
    expect(night.status, JSON.stringify(night.body)).toBe(200);
    const whole = await reserve('hotel', { IdPersona: c, IdCama: beds.hot2, Turno: 'C', ...stay });
    expect(whole.status).toBe(409);
    // A suite is one person's: a day turn there holds the night too.
    const suiteDay = await reserve('hotel', { IdPersona: c, IdCama: beds.suite, Turno: 'D', ...stay });
    expect(suiteDay.status, JSON.stringify(suiteDay.body)).toBe(200);
    expect(await nights(suiteDay.body.result.IdReserva)).toHaveLength(8);
    const suiteNight = await reserve('hotel', {
      IdPersona: crew.people[5],
      IdCama: beds.suite,
      Turno: 'N',
      ...stay,
    });
    expect(suiteNight.status).toBe(409);
  });

  it('refuses what may not be lodged, each with its message, and writes nothing', async () => {
    const refusals: Array<[object, RegExp]> = [
      [
        {
          IdPersona: crew.people[6],
          IdCama: beds.hot,
          FechaInicio: addDays(today, 40),
          FechaFin: addDays(today, 70),
        },
        /exceeds the maximum of 28 days/,
      ],
      [
        { IdPersona: crew.people[6], FechaInicio: addDays(today, 190), FechaFin: addDays(today, 205) },
        /must fall within .* accreditation/,
      ],
      [
        { IdPersona: crew.people[6], FechaInicio: addDays(today, -2), FechaFin: addDays(today, 2) },
        /cannot be before today/,
      ],
      [
        { IdPersona: crew.people[6], FechaInicio: addDays(today, 3), FechaFin: addDays(today, 3) },
        /departure date must be after the arrival/,
      ],
      [
        { IdPersona: crew.people[6], IdCama: beds.women, FechaInicio: today, FechaFin: addDays(today, 2) },
        /in a block that does not house/,
      ],
      [
        { IdPersona: crew.people[6], IdCama: beds.out, FechaInicio: today, FechaFin: addDays(today, 2) },
        /out of service/,
      ],
    ];
    for (const [body, message] of refusals) {
      const res = await reserve('hotel', body);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.message).toMatch(message);
    }
    // Someone with no accreditation in the division, and a company no profile of the camp takes.
    const stranger = (await db()
      .selectFrom('administration_person as p')
      .select('p.IdPersona')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('accreditation_accreditation as a')
              .select('a.IdAcreditacion')
              .whereRef('a.IdPersona', '=', 'p.IdPersona'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('accreditation_request as r')
              .select('r.IdSolicitud')
              .whereRef('r.IdPersona', '=', 'p.IdPersona'),
          ),
        ),
      )
      .executeTakeFirstOrThrow()) as Json;
    const unaccredited = await reserve('hotel', {
      IdPersona: stranger.IdPersona,
      FechaInicio: today,
      FechaFin: addDays(today, 2),
    });
    expect(unaccredited.body.message).toMatch(/is not accredited in this division/);
    const excluded = await accreditCrew(db(), {
      company: 'SERMIPAC',
      division: 1,
      count: 1,
      prefix: `X${dialect[0].toUpperCase()}`,
      today,
    });
    await db()
      .updateTable('accreditation_accreditation')
      .set({ IdCompania: (await companyId('MINANDES')) as never })
      .where('IdAcreditacion', '=', excluded.accreditations[0])
      .execute();
    await db()
      .updateTable('hotel_camp_profile')
      .set({ Activo: 'N' })
      .where('Descripcion', '=', 'SUPERVISIÓN MINERA ANDINA')
      .execute();
    try {
      const res = await reserve('hotel', {
        IdPersona: excluded.people[0],
        FechaInicio: today,
        FechaFin: addDays(today, 2),
      });
      expect(res.body.message).toMatch(/^Company MINANDES is in no profile of CAMPAMENTO SAN GABRIEL/);
    } finally {
      await db()
        .updateTable('hotel_camp_profile')
        .set({ Activo: 'S' })
        .where('Descripcion', '=', 'SUPERVISIÓN MINERA ANDINA')
        .execute();
    }
    // A camp that releases reservations needs more than 0 days to do it.
    const campRow = (await call(t.app, { url: `/api/rest/camp/${camp}`, token: tokens.admin })).body as Json;
    const { id: _id, ...fields } = campRow;
    const zero = await as('admin', 'PUT', `/api/rest/camp/${camp}`, {
      ...fields,
      LiberarReserva: 'S',
      DiasLiberarReserva: 0,
    });
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.body)).toMatch(/greater than 0/);
  });
  const companyId = async (alias: string) =>
    Number(
      (
        (await db()
          .selectFrom('administration_company')
          .select('IdCompania')
          .where('Alias', '=', alias)
          .executeTakeFirstOrThrow()) as Json
      ).IdCompania,
    );

  it('assigns a bed of the profile’s room type, and houses a crew before its first day from its mobilisation request', async () => {
    const auto = await reserve('hotel', {
      IdPersona: crew.people[7],
      FechaInicio: addDays(today, 1),
      FechaFin: addDays(today, 4),
    });
    expect(auto.status, JSON.stringify(auto.body)).toBe(200);
    const bed = (await db()
      .selectFrom('hotel_bed as b')
      .innerJoin('hotel_room as r', 'r.IdHabitacion', 'b.IdHabitacion')
      .innerJoin('hotel_room_type as t', 't.IdTipoHabitacion', 'r.IdTipoHabitacion')
      .select('t.Descripcion')
      .where('b.IdCama', '=', auto.body.result.IdCama)
      .executeTakeFirstOrThrow()) as Json;
    expect(bed.Descripcion).toBe('CUÁDRUPLE');
    // A worker not accredited yet, whose mobilisation request is sent: lodged within its dates.
    const pending = (await db()
      .selectFrom('accreditation_request as r')
      .innerJoin('administration_company as c', 'c.IdCompania', 'r.IdCompania')
      .innerJoin('administration_person as p', 'p.IdPersona', 'r.IdPersona')
      .select(['r.IdPersona', 'r.FechaInicio', 'r.FechaFin', 'r.IdSolicitud'])
      // The profile's four-bed rooms are in the men's block.
      .where('p.Sexo', '=', 'M')
      .orderBy('r.IdSolicitud')
      .where('r.TipoSolicitud', '=', 'M')
      .where('r.EstadoAprobacion', 'in', ['P', 'O'])
      .where('r.IdDivision', '=', 1)
      .where('r.IdPersona', 'is not', null)
      .where('c.Alias', 'in', ['SERMIPAC', 'PERVOSUR', 'TRANSALTI'])
      .executeTakeFirstOrThrow()) as Json;
    await db()
      .updateTable('accreditation_request')
      .set({ FechaInicio: addDays(today, 2), FechaFin: addDays(today, 120) })
      .where('IdSolicitud', '=', pending.IdSolicitud)
      .execute();
    await db()
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'T' })
      .where('IdPersona', '=', pending.IdPersona)
      .where('IdDivision', '=', 1)
      .execute();
    const early = await reserve('hotel', {
      IdPersona: pending.IdPersona,
      FechaInicio: addDays(today, 2),
      FechaFin: addDays(today, 5),
    });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body.result.IdSolicitud).toBe(pending.IdSolicitud);
    expect(early.body.result.IdAcreditacion).toBeNull();
  });

  it('checks in, moves with the history kept, checks out; refuses a demobilised or suspended person', async () => {
    const person = crew.people[8];
    const made = await reserve('hotel', {
      IdPersona: person,
      FechaInicio: today,
      FechaFin: addDays(today, 6),
    });
    const id = made.body.result.IdReserva;
    const checkIn = await as('hotel', 'POST', `${BASE}/reservas/${id}/ingreso`, {});
    expect(checkIn.status, JSON.stringify(checkIn.body)).toBe(200);
    expect((await reservation(id)).Estado).toBe('I');
    const target = await bedId('A-112-C');
    const moved = await as('hotel', 'POST', `${BASE}/reservas/${id}/traslado`, { IdCama: target });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const next = moved.body.result;
    expect(next).toMatchObject({
      IdCama: target,
      Estado: 'I',
      IdReservaAnterior: id,
      FechaFin: addDays(today, 6),
    });
    expect((await reservation(id)).Estado).toBe('M');
    expect(await nights(id)).toEqual([]);
    expect(await nights(next.IdReserva)).toHaveLength(12);
    const out = await as('hotel', 'POST', `${BASE}/reservas/${next.IdReserva}/salida`, {});
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(await nights(next.IdReserva)).toEqual([]);
    const stays = await as(
      'hotel',
      'GET',
      `${BASE}/reportes/estadias?documento=${await personDocument(person)}`,
    );
    expect(stays.body.result.map((s: Json) => s.Estado)).toEqual(['S', 'M']);
    // Suspended and demobilised people are not taken in.
    for (const [state, message] of [
      ['S', /accreditation is suspended/],
      ['T', /is demobilised/],
    ] as const) {
      const who = crew.people[state === 'S' ? 9 : 10];
      const booked = await reserve('hotel', {
        IdPersona: who,
        FechaInicio: today,
        FechaFin: addDays(today, 2),
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      await db()
        .updateTable('accreditation_accreditation')
        .set({ Estado: state })
        .where('IdPersona', '=', who)
        .execute();
      const refused = await as(
        'hotel',
        'POST',
        `${BASE}/reservas/${booked.body.result.IdReserva}/ingreso`,
        {},
      );
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(message);
      expect((await reservation(booked.body.result.IdReserva)).Estado).toBe('R');
    }
  });
  const personDocument = async (id: number) =>
    String(
      (
        (await db()
          .selectFrom('administration_person')
          .select('Documento')
          .where('IdPersona', '=', id)
          .executeTakeFirstOrThrow()) as Json
      ).Documento,
    );

  it('lets a requester reserve for its own company’s people only, in the profile’s room type', async () => {
    const mine = await reserve('requester', {
      IdPersona: crew.people[11],
      FechaInicio: addDays(today, 1),
      FechaFin: addDays(today, 3),
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const listed = await as('requester', 'GET', `${BASE}/reservas?take=100`);
    expect(listed.body.result.data.every((r: Json) => r.Compania === 'SERMIPAC')).toBe(true);
    expect(listed.body.result.data.map((r: Json) => r.IdReserva)).toContain(mine.body.result.IdReserva);
    // A suite is not its profile's room type; another company's worker is not its to lodge.
    const suite = await reserve('requester', {
      IdPersona: crew.people[12],
      IdCama: beds.suite,
      FechaInicio: addDays(today, 20),
      FechaFin: addDays(today, 22),
    });
    expect(suite.body.message).toMatch(/not of your camp profile's room type/);
    const other = (await db()
      .selectFrom('accreditation_accreditation as a')
      .innerJoin('administration_company as c', 'c.IdCompania', 'a.IdCompania')
      .select('a.IdPersona')
      .where('c.Alias', '=', 'TRANSALTI')
      .where('a.IdEntidad', '=', 'T')
      .where('a.Estado', '=', 'A')
      .executeTakeFirstOrThrow()) as Json;
    const theirs = await reserve('requester', {
      IdPersona: other.IdPersona,
      FechaInicio: addDays(today, 1),
      FechaFin: addDays(today, 3),
    });
    expect(theirs.status).toBe(409);
    expect(theirs.body.message).toMatch(/is not among the people you may lodge/);
    // Nor does a requester check anyone in.
    expect(
      (await as('requester', 'POST', `${BASE}/reservas/${mine.body.result.IdReserva}/ingreso`, {})).status,
    ).toBe(403);
  });

  it('proposes and books a crew all or nothing, naming whom it could not place', async () => {
    const from = addDays(today, 30);
    const to = addDays(today, 37);
    const proposal = await as('hotel', 'POST', `${BASE}/reserva-masiva/propuesta`, {
      IdCampamento: camp,
      IdContrato: crew.contract,
      FechaInicio: from,
      FechaFin: to,
    });
    expect(proposal.status, JSON.stringify(proposal.body)).toBe(200);
    const lines: Json[] = proposal.body.result;
    const placed = lines.filter((l) => l.IdCama !== null);
    expect(placed.length).toBeGreaterThanOrEqual(55);
    expect(new Set(placed.map((l) => l.IdCama)).size).toBe(placed.length);
    // By documents: one unknown, named.
    const byDocs = await as('hotel', 'POST', `${BASE}/reserva-masiva/propuesta`, {
      IdCampamento: camp,
      Documentos: [await personDocument(crew.people[0]), 'ZZ999999'],
      FechaInicio: from,
      FechaFin: to,
    });
    expect(byDocs.body.result.map((l: Json) => l.Motivo)).toEqual([null, 'No person has document ZZ999999.']);
    // Someone books one of the proposed beds meanwhile: nothing of the crew is booked.
    const [first, second] = placed;
    const meanwhile = await reserve('hotel', {
      IdPersona: crew.people[59],
      IdCama: second.IdCama,
      FechaInicio: from,
      FechaFin: addDays(from, 1),
    });
    expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(200);
    const refused = await as('hotel', 'POST', `${BASE}/reserva-masiva`, {
      IdCampamento: camp,
      FechaInicio: from,
      FechaFin: to,
      Asignaciones: [first, second].map((l) => ({ IdPersona: l.IdPersona, IdCama: l.IdCama })),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Nothing was booked: 1 person\(s\)/);
    const held = await db()
      .selectFrom('hotel_bed_night')
      .select('IdCamaNoche')
      .where('IdCama', '=', first.IdCama)
      .where('Fecha', '>=', from)
      .where('Fecha', '<', to)
      .execute();
    expect(held).toEqual([]);
    const booked = await as('hotel', 'POST', `${BASE}/reserva-masiva`, {
      IdCampamento: camp,
      FechaInicio: from,
      FechaFin: to,
      Asignaciones: placed
        .filter((l) => l.IdPersona !== crew.people[59] && l !== second)
        .map((l) => ({ IdPersona: l.IdPersona, IdCama: l.IdCama })),
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.result.reservadas).toBe(
      placed.filter((l) => l.IdPersona !== crew.people[59] && l !== second).length,
    );
  });

  it('shows the grid, the dashboard and the occupancy report', async () => {
    const grid = await as(
      'hotel',
      'GET',
      `${BASE}/disponibilidad?desde=${today}&dias=31&IdCampamento=${camp}`,
    );
    expect(grid.status, JSON.stringify(grid.body)).toBe(200);
    expect(grid.body.result.dias).toHaveLength(31);
    expect(grid.body.result.camas.length).toBeGreaterThan(300);
    expect(grid.body.result.camas.find((b: Json) => b.IdCama === beds.out).EnServicio).toBe(false);
    expect((await as('hotel', 'GET', `${BASE}/disponibilidad?desde=${today}&dias=32`)).status).toBe(400);
    const board = await as('hotel', 'GET', `${BASE}/tablero`);
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    const [figures] = board.body.result.campamentos;
    expect(figures.camas).toBe(
      figures.ocupadas + figures.reservadas + figures.libres + figures.fueraServicio,
    );
    expect(figures.fueraServicio).toBeGreaterThan(0);
    // The demo's worker who should have left yesterday is an overstay.
    expect(board.body.result.excedidos.some((l: Json) => l.Motivo === 'R')).toBe(true);
    const report = await as(
      'hotel',
      'GET',
      `${BASE}/reportes/ocupacion?desde=${addDays(today, 30)}&hasta=${addDays(today, 36)}`,
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.result.dias[0].reservadas).toBeGreaterThanOrEqual(54);
    const excel = await as('hotel', 'POST', `${BASE}/reportes/ocupacion/excel`, {
      desde: today,
      hasta: addDays(today, 6),
    });
    expect(excel.status, JSON.stringify(excel.body)).toBe(200);
    expect(Buffer.from(excel.body.result.fileBase64, 'base64').subarray(0, 2).toString()).toBe('PK');
  });

  it('says why a woman finds no bed when her profile’s room type is only in the men’s block', async () => {
    const women = await accreditCrew(db(), {
      company: 'SERMIPAC',
      division: 1,
      count: 2,
      prefix: `HW${dialect[0].toUpperCase()}`,
      today,
      sex: 'F',
    });
    const single = await reserve('hotel', {
      IdPersona: women.people[0],
      FechaInicio: addDays(today, 3),
      FechaFin: addDays(today, 5),
    });
    expect(single.status, JSON.stringify(single.body)).toBe(409);
    expect(single.body.messageKey).toBe('hotel.refusals.noBedOfTypeF');
    expect(single.body.params.type).toBe('CUÁDRUPLE');
    expect(single.body.params.others.length).toBeGreaterThan(0);
    expect(single.body.message).toContain('No women’s block'.replace('’', "'"));
    // The crew's proposal says the same, in Spanish, naming the room types that have women's beds.
    const proposal = await call(t.app, {
      method: 'POST',
      url: `${BASE}/reserva-masiva/propuesta`,
      token: tokens.hotel,
      headers: { 'accept-language': 'es' },
      payload: {
        IdCampamento: camp,
        IdContrato: women.contract,
        FechaInicio: addDays(today, 3),
        FechaFin: addDays(today, 5),
      },
    });
    expect(proposal.status, JSON.stringify(proposal.body)).toBe(200);
    const line = proposal.body.result.find((l: Json) => l.IdPersona === women.people[1]);
    expect(line.Motivo).toContain('en un pabellón para mujeres');
    expect(line.Motivo).toContain(single.body.params.others);
    // With a room type the women's block has, she is housed.
    const typed = await reserve('hotel', {
      IdPersona: women.people[0],
      FechaInicio: addDays(today, 3),
      FechaFin: addDays(today, 5),
      IdTipoHabitacion: await db()
        .selectFrom('hotel_room_type')
        .select('IdTipoHabitacion')
        .where('Descripcion', '=', single.body.params.others.split(', ')[0])
        .executeTakeFirstOrThrow()
        .then((r: Json) => r.IdTipoHabitacion),
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
  });

  it('keeps an overstaying guest’s bed: not free on the grid, counted occupied, refused to others by the database', async () => {
    const board = await as('hotel', 'GET', `${BASE}/tablero`);
    const over = board.body.result.excedidos.find((l: Json) => l.Motivo === 'R' && l.FechaFin < today);
    expect(over, JSON.stringify(board.body.result.excedidos)).toBeDefined();
    const stay = await reservation(over.IdReserva);
    const grid = await as(
      'hotel',
      'GET',
      `${BASE}/disponibilidad?desde=${today}&dias=3&IdCampamento=${camp}`,
    );
    const bed = grid.body.result.camas.find((b: Json) => b.IdCama === Number(stay.IdCama));
    const on = grid.body.result.estadias.filter((s: Json) => s.IdCama === bed.IdCama);
    expect(on.find((s: Json) => s.IdReserva === over.IdReserva)).toMatchObject({ Excedida: true });
    expect(cellState(bed, on, today)).toBe('overstay');
    expect(cellState(bed, on, addDays(today, 1))).not.toBe('overstay');
    const [figures] = (await as('hotel', 'GET', `${BASE}/tablero`)).body.result.campamentos;
    expect(figures.camas).toBe(
      figures.ocupadas + figures.reservadas + figures.libres + figures.fueraServicio,
    );
    // A reservation of that bed tonight is refused, and tonight is held in the guest's name.
    const tonight = {
      IdPersona: crew.people[40],
      IdCama: bed.IdCama,
      FechaInicio: today,
      FechaFin: addDays(today, 1),
    };
    const taken = await reserve('hotel', tonight);
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.messageKey).toBe('hotel.refusals.overlap');
    const held = (await db()
      .selectFrom('hotel_bed_night')
      .selectAll()
      .where('IdReserva', '=', over.IdReserva)
      .where('Fecha', '=', today)
      .execute()) as Json[];
    expect(held.length).toBeGreaterThan(0);
    await expect(
      db()
        .insertInto('hotel_bed_night')
        .values({
          IdCliente: held[0].IdCliente,
          IdCama: held[0].IdCama,
          Fecha: today,
          Mitad: held[0].Mitad,
          IdReserva: stay.IdReserva,
          IdPersona: crew.people[41],
          IdUsuarioCreacion: 'PRUEBA',
          FechaCreacion: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow(/unique|UNIQUE/);
    // Checked out, the bed is free again tonight.
    const out = await as('hotel', 'POST', `${BASE}/reservas/${over.IdReserva}/salida`);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const again = await reserve('hotel', tonight);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('releases the reservations nobody checked in in time, by the camp’s days to release', async () => {
    const made = await reserve('hotel', {
      IdPersona: crew.people[13],
      FechaInicio: today,
      FechaFin: addDays(today, 4),
    });
    const id = made.body.result.IdReserva;
    // San Gabriel releases after 2 days: on the second day after the first it is still held.
    const at = (days: number) => Date.parse(`${addDays(today, days)}T17:00:00Z`);
    await releaseLapsed(db(), t.registry, 1, at(2));
    expect((await reservation(id)).Estado).toBe('R');
    expect(await releaseLapsed(db(), t.registry, 1, at(3))).toBeGreaterThanOrEqual(1);
    expect((await reservation(id)).Estado).toBe('L');
    expect(await nights(id)).toEqual([]);
    // A camp that does not release keeps them.
    await db()
      .updateTable('hotel_camp')
      .set({ LiberarReserva: 'N' })
      .where('IdCampamento', '=', camp)
      .execute();
    try {
      const kept = await reserve('hotel', {
        IdPersona: crew.people[14],
        FechaInicio: today,
        FechaFin: addDays(today, 4),
      });
      await releaseLapsed(db(), t.registry, 1, at(5));
      expect((await reservation(kept.body.result.IdReserva)).Estado).toBe('R');
    } finally {
      await db()
        .updateTable('hotel_camp')
        .set({ LiberarReserva: 'S' })
        .where('IdCampamento', '=', camp)
        .execute();
    }
  });

  it('checks a demobilised worker out and releases what was to come, recorded with the revocations', async () => {
    const person = crew.people[15];
    const now = await reserve('hotel', {
      IdPersona: person,
      FechaInicio: today,
      FechaFin: addDays(today, 5),
    });
    await as('hotel', 'POST', `${BASE}/reservas/${now.body.result.IdReserva}/ingreso`, {});
    const later = await reserve('hotel', {
      IdPersona: person,
      FechaInicio: addDays(today, 50),
      FechaFin: addDays(today, 55),
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    const holding = (
      (await db()
        .selectFrom('hotel_reservation')
        .select('IdReserva')
        .where('IdPersona', '=', person)
        .where('Estado', 'in', ['R', 'I'])
        .execute()) as Json[]
    ).map((r) => Number(r.IdReserva));
    expect(holding).toEqual(expect.arrayContaining([now.body.result.IdReserva, later.body.result.IdReserva]));
    const made = await as('requester', 'POST', '/api/acreditaciondesmovilizacion/crear', {
      IdEntidad: 'T',
      IdAcreditacion: crew.accreditations[15],
      Observacion: 'Fin de la parada de planta',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const approved = await as(
      'authoriser',
      'POST',
      '/api/acreditaciondesmovilizacion/actualizarautorizador',
      {
        IdSolicitud: made.body.result.Solicitudes[0].IdSolicitud,
        Accion: 'APROBAR',
      },
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const revoked = approved.body.result.revocados
      .filter((r: Json) => r.Recurso === 'reservation')
      .map((r: Json) => r.IdRegistro);
    expect(revoked.sort()).toEqual(holding.sort());
    expect((await reservation(now.body.result.IdReserva)).Estado).toBe('S');
    expect((await reservation(later.body.result.IdReserva)).Estado).toBe('A');
    expect(await nights(now.body.result.IdReserva)).toEqual([]);
    expect(await nights(later.body.result.IdReserva)).toEqual([]);
  });

  it('books a bed-night once when fifty offices reserve it at the same time', async () => {
    const night = addDays(today, 80);
    const target = await bedId('A-120-A');
    const crowd = crew.people.slice(16, 66);
    await db()
      .updateTable('accreditation_accreditation')
      .set({ FechaFin: addDays(today, 200) })
      .where('IdAcreditacion', 'in', crew.accreditations)
      .execute();
    const answers = await Promise.all(
      crowd.map((person) =>
        reserve('hotel', {
          IdPersona: person,
          IdCama: target,
          FechaInicio: night,
          FechaFin: addDays(night, 1),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(answers.find((a) => a.status !== 200 && a.status !== 409)?.body),
    ).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(crowd.length - 1);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body.message).toMatch(/^Bed A-120-A is already booked or occupied on some night/);
    const held = await db()
      .selectFrom('hotel_bed_night')
      .select('IdPersona')
      .where('IdCama', '=', target)
      .where('Fecha', '=', night)
      .execute();
    expect(held).toHaveLength(2);
  });
});
