import { verify } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { signingKeys } from '../../src/server/services/site/signing-keys.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { decideBoarding, type SignedManifest } from '../../src/shared/transport.js';
import { anotherClientAdmin, call, menuIdOf } from '../support/app.js';
import { testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { accreditCrew } from '../support/lodging.js';
import { giveBadges, giveLicence, putOnRoster, testVehicle } from '../support/transport.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/transporte';

describe.each(DIALECTS)('transport on %s', (dialect) => {
  const today = siteDate('PE');
  const clock = testClock(Date.parse(`${today}T12:00:00-05:00`));
  let south: number;
  let crew: { people: number[]; accreditations: number[] };
  let others: { people: number[] };
  let drivers: number[];
  let badges: Map<number, string>;
  const buses: Record<string, number> = {};
  const routes: Record<string, number> = {};
  const w = world(dialect, {
    users: { coordinator: 'TRANSPORTE', requester: 'SOLICITANTE', admin: 'ADMIN', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    auth: { now: clock.now },
    ready: async (w) => {
      const db = w.db();
      south = Number(
        (
          (await db
            .selectFrom('system_division')
            .select('IdDivision')
            .where('Division', '=', SOUTH)
            .executeTakeFirstOrThrow()) as Json
        ).IdDivision,
      );
      crew = await accreditCrew(db, { company: 'SERMIPAC', division: south, count: 90, prefix: 'TR', today });
      others = await accreditCrew(db, {
        company: 'TRANSALTI',
        division: south,
        count: 2,
        prefix: 'TO',
        today,
      });
      drivers = (
        await accreditCrew(db, { company: 'TRANSALTI', division: south, count: 3, prefix: 'TD', today })
      ).people;
      await giveLicence(db, [drivers[0], drivers[2]], 'A-IIIc');
      await giveLicence(db, [drivers[1]], 'A-IIb');
      badges = await giveBadges(db, crew.people.slice(80), 'TRB');
      for (const r of (await db
        .selectFrom('transport_transport_route')
        .select(['IdRuta', 'Codigo'])
        .where('IdDivision', '=', south)
        .execute()) as Json[])
        routes[r.Codigo] = Number(r.IdRuta);
      const licence = (
        (await db
          .selectFrom('system_driving_licence')
          .select('IdLicenciaConducir')
          .where('Categoria', '=', 'A-IIIA')
          .executeTakeFirstOrThrow()) as Json
      ).IdLicenciaConducir;
      for (const [plate, soat] of [
        ['TST-451', addDays(today, 300)],
        ['TST-452', addDays(today, 300)],
        ['TST-453', addDays(today, -1)],
      ] as const) {
        const vehicle = await testVehicle(db, { plate, seats: 45, division: south, soatUntil: soat, today });
        const made = await w.as('coordinator', 'POST', '/api/rest/transport-bus', {
          IdVehiculo: vehicle,
          Asientos: 45,
          IdLicenciaConducir: licence,
          Activo: 'S',
        });
        if (made.status !== 201) throw new Error(JSON.stringify(made.body));
        buses[plate] = Number(made.body.IdBus);
      }
    },
  });

  const trip = (fields: Record<string, unknown>) =>
    w.as('coordinator', 'POST', '/api/rest/trip', {
      IdRuta: routes['AQP-UM'],
      Fecha: addDays(today, 1),
      Hora: '06:00',
      Sentido: 'S',
      IdBus: buses['TST-451'],
      IdConductor: drivers[0],
      ...fields,
    });
  const newTrip = async (fields: Record<string, unknown>) => {
    const made = await trip(fields);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return Number(made.body.IdViaje);
  };
  const book = (id: number, people: number[], who = 'coordinator') =>
    w.as(who, 'POST', `${BASE}/viajes/${id}/reservas`, { IdPersonas: people });
  const seats = async (id: number, states = ['R', 'A']) =>
    (await w
      .db()
      .selectFrom('transport_trip_booking')
      .select(['IdPersona', 'Asiento', 'Estado', 'Motivo', 'Excepcion'])
      .where('IdViaje', '=', id)
      .where('Estado', 'in', states)
      .orderBy('Asiento')
      .execute()) as Json[];
  const tripRow = async (id: number) =>
    (await w
      .db()
      .selectFrom('transport_trip')
      .selectAll()
      .where('IdViaje', '=', id)
      .executeTakeFirstOrThrow()) as Json;

  it('refuses a trip in the past, a bus whose SOAT expired, a driver without the licence or already driving, and writes nothing', async () => {
    const before = await w.count('trip');
    const past = await trip({ Fecha: addDays(today, -1) });
    expect(past.status).toBe(400);
    expect(past.body.errors.Fecha.message).toBe('The trip cannot be on a past date.');
    const expired = await trip({ IdBus: buses['TST-453'] });
    expect(expired.status).toBe(400);
    expect(expired.body.errors.IdBus.message).toBe(
      `The SOAT requirement of vehicle TST-453 expired on ${addDays(today, -1)}.`,
    );
    const licence = await trip({ IdConductor: drivers[1] });
    expect(licence.status).toBe(400);
    expect(licence.body.errors.IdConductor.message).toMatch(
      /licence \(A-IIB\) does not reach the class A-IIIA/,
    );
    const stranger = await trip({ IdConductor: crew.people[0] });
    expect(stranger.body.errors.IdConductor.message).toMatch(
      /^CUADRILLA TR TRABAJADOR 01's licence \(.*\) does not reach the class A-IIIA/,
    );
    const first = await newTrip({ Fecha: addDays(today, 20) });
    const busy = await trip({ Fecha: addDays(today, 20), Hora: '08:00', IdBus: buses['TST-452'] });
    expect(busy.status).toBe(400);
    expect(busy.body.errors.IdConductor.message).toBe(
      `The driver already has a trip on ${addDays(today, 20)} at 06:00.`,
    );
    const spanish = await w.as(
      'coordinator',
      'POST',
      '/api/rest/trip',
      {
        IdRuta: routes['AQP-UM'],
        Fecha: addDays(today, 1),
        Hora: '06:00',
        Sentido: 'S',
        IdBus: buses['TST-453'],
        IdConductor: drivers[0],
      },
      { headers: { 'accept-language': 'es' } },
    );
    expect(spanish.body.errors.IdBus.message).toBe(
      `El requisito SOAT del vehículo TST-453 venció el ${addDays(today, -1)}.`,
    );
    expect(await w.count('trip')).toBe(before + 1);
    expect((await tripRow(first)).Asientos).toBe(45);
  });

  it('gives exactly 45 seats to 60 parallel bookings of a 45-seat bus, each seat once', async () => {
    const id = await newTrip({ Fecha: addDays(today, 5) });
    const answers = await Promise.all(crew.people.slice(0, 60).map((p) => book(id, [p])));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(answers.find((a) => a.status !== 200 && a.status !== 409)?.body),
    ).toHaveLength(45);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body.message).toBe('Not enough seats: 0 left and you asked for 1.');
    const held = await seats(id);
    expect(held.map((s) => Number(s.Asiento))).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(Number((await tripRow(id)).Reservados)).toBe(45);
  });

  it('lets a requester book and see only its own company’s workers; another client reaches nothing', async () => {
    const id = await newTrip({ Fecha: addDays(today, 2), IdBus: buses['TST-452'], IdConductor: drivers[2] });
    const mine = await book(id, [crew.people[60], crew.people[61]], 'requester');
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.result.reservados.map((r: Json) => r.Asiento)).toEqual([1, 2]);
    const theirs = await book(id, [others.people[0]], 'requester');
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toBe(
      `Person ${others.people[0]} has no accreditation in force in the division on ${addDays(today, 2)}.`,
    );
    expect((await book(id, [others.people[0]])).status).toBe(200);
    const seen = await w.as('requester', 'GET', `${BASE}/viajes/${id}`);
    expect(seen.body.result.reservas.map((r: Json) => r.IdPersona).sort()).toEqual(
      [crew.people[60], crew.people[61]].sort(),
    );
    const candidates = await w.as(
      'requester',
      'GET',
      `${BASE}/candidatos?fecha=${addDays(today, 2)}&buscar=CUADRILLA%20TO`,
    );
    expect(candidates.body.result).toEqual([]);
    const forbidden = await w.as('requester', 'GET', `${BASE}/propuesta?fecha=${addDays(today, 2)}`);
    expect(forbidden.status).toBe(403);
    const stranger = await anotherClientAdmin(w.t, [await menuIdOf(w.t, '/transporte/viajes')]);
    const across = await call(w.app, { method: 'GET', url: `${BASE}/viajes/${id}`, token: stranger });
    expect([403, 404]).toContain(across.status);
    const cancel = await w.as(
      'requester',
      'DELETE',
      `${BASE}/reservas/${mine.body.result.reservados[0].IdReserva}`,
    );
    expect(cancel.status).toBe(200);
    expect((await seats(id, ['L'])).map((s) => s.Motivo)).toEqual(['CANCELADA']);
    expect(Number((await tripRow(id)).Reservados)).toBe(2);
  });

  it('refuses a person on two trips that meet, empty and unknown input, a departed trip, and writes nothing', async () => {
    const a = await newTrip({ Fecha: addDays(today, 6), IdBus: buses['TST-452'], IdConductor: drivers[2] });
    const b = await newTrip({
      Fecha: addDays(today, 6),
      Hora: '08:00',
      IdRuta: routes['MOQ-UM'],
      Sentido: 'I',
    });
    const person = crew.people[62];
    expect((await book(a, [person])).status).toBe(200);
    const twice = await book(b, [person]);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe(
      `CUADRILLA TR TRABAJADOR 63 already has a trip that meets this one (${addDays(today, 6)} 06:00).`,
    );
    const again = await book(a, [person]);
    expect(again.body.message).toMatch(/already has a seat on this trip/);
    expect((await book(a, [])).status).toBe(400);
    expect(
      (await w.as('coordinator', 'POST', `${BASE}/viajes/99999999/reservas`, { IdPersonas: [person] }))
        .status,
    ).toBe(404);
    expect(
      (await w.as('coordinator', 'POST', `${BASE}/viajes/${a}/reservas`, { IdPersonas: ['x'] })).status,
    ).toBe(400);
    expect((await w.as('coordinator', 'GET', `${BASE}/tablero?fecha=2026-13-45`)).status).toBe(400);
    expect((await w.as('coordinator', 'POST', `${BASE}/viajes/${b}/salida`)).status).toBe(200);
    const late = await book(b, [crew.people[63]]);
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('The trip has departed.');
    expect((await seats(b, ['R', 'A', 'N', 'L'])).length).toBe(0);
  });

  it('books a visitor only within the visit’s dates', async () => {
    // An approved visit registers its visitor as a person accredited for the visit's days (IdEntidad P).
    const visitor = crew.people[89];
    await w
      .db()
      .updateTable('accreditation_accreditation')
      .set({ IdEntidad: 'P', FechaInicio: addDays(today, 7), FechaFin: addDays(today, 8) })
      .where('IdAcreditacion', '=', crew.accreditations[89])
      .execute();
    const during = await newTrip({
      Fecha: addDays(today, 8),
      Hora: '16:00',
      IdBus: buses['TST-452'],
      IdConductor: drivers[2],
    });
    const after = await newTrip({
      Fecha: addDays(today, 9),
      Hora: '16:00',
      IdBus: buses['TST-452'],
      IdConductor: drivers[2],
    });
    expect((await book(during, [visitor])).status).toBe(200);
    const late = await book(after, [visitor]);
    expect(late.status).toBe(400);
    expect(late.body.message).toBe(
      `Person ${visitor} has no accreditation in force in the division on ${addDays(today, 9)}.`,
    );
  });

  it('proposes the manifests of a 14×7 change day from the rosters and confirms them in one transaction', async () => {
    const D = addDays(today, 10);
    const db = w.db();
    const up = crew.people.slice(64, 76);
    const down = crew.people.slice(76, 80);
    await putOnRoster(db, up, 'GUARDIA DÍA 14X7', D);
    await putOnRoster(db, down, 'GUARDIA DÍA 14X7', addDays(D, -14));
    const home = (people: number[], ubigeo: string) =>
      db
        .updateTable('administration_person')
        .set({ IdUbigeoResidencia: ubigeo })
        .where('IdPersona', 'in', people)
        .execute();
    await home([...up.slice(0, 8), ...down.slice(0, 2)], 'PE040101');
    await home(up.slice(8), 'PE180101');
    await home(down.slice(2), 'PE150101');
    const aqpUp = await newTrip({ Fecha: D, Hora: '05:00' });
    const moqUp = await newTrip({
      Fecha: D,
      Hora: '05:30',
      IdRuta: routes['MOQ-UM'],
      IdBus: buses['TST-452'],
      IdConductor: drivers[2],
    });
    const aqpDown = await newTrip({ Fecha: D, Hora: '15:00', Sentido: 'B' });
    const proposed = await w.as('coordinator', 'GET', `${BASE}/propuesta?fecha=${D}`);
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    const on = (id: number) =>
      proposed.body.result.viajes
        .find((v: Json) => v.IdViaje === id)
        .propuestos.map((p: Json) => p.IdPersona)
        .filter((p: number) => crew.people.includes(p));
    expect(on(aqpUp).sort()).toEqual(up.slice(0, 8).sort());
    expect(on(moqUp).sort()).toEqual(up.slice(8).sort());
    expect(on(aqpDown).sort()).toEqual(down.slice(0, 2).sort());
    const lima = proposed.body.result.sinAsiento.filter((p: Json) => down.includes(p.IdPersona));
    expect(lima.map((p: Json) => [p.IdPersona, p.Sentido, p.motivo]).sort()).toEqual(
      down
        .slice(2)
        .map((p) => [p, 'B', 'NO_TRIP'])
        .sort(),
    );
    const manifests = proposed.body.result.viajes.map((v: Json) => ({
      IdViaje: v.IdViaje,
      IdPersonas: v.propuestos.map((p: Json) => p.IdPersona),
    }));
    // One refused trip refuses them all: someone not accredited among them.
    const broken = [...manifests, { IdViaje: aqpDown, IdPersonas: [99_999_999] }];
    const before = await w.count('trip-booking');
    const refused = await w.as('coordinator', 'POST', `${BASE}/propuesta`, {
      viajes: broken.filter((m: Json) => m.IdPersonas.length),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `Person 99999999 has no accreditation in force in the division on ${D}.`,
    );
    expect(await w.count('trip-booking')).toBe(before);
    const confirmed = await w.as('coordinator', 'POST', `${BASE}/propuesta`, {
      viajes: manifests.filter((m: Json) => m.IdPersonas.length),
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await seats(aqpUp)).map((s) => s.IdPersona)).toEqual(expect.arrayContaining(up.slice(0, 8)));
    const again = await w.as('coordinator', 'GET', `${BASE}/propuesta?fecha=${D}`);
    expect(again.body.result.yaReservados).toBeGreaterThanOrEqual(up.length + 2);
  });

  it('makes a timetable on every change day of a roster, all or none', async () => {
    const types = (await w
      .db()
      .selectFrom('attendance_schedule_type')
      .select(['IdTipoHorario', 'Descripcion'])
      .execute()) as Json[];
    const roster = Number(types.find((r) => r.Descripcion === 'GUARDIA DÍA 14X7').IdTipoHorario);
    const anchor = addDays(today, 30);
    const plan = {
      IdTipoHorario: roster,
      FechaAncla: anchor,
      desde: addDays(today, 30),
      hasta: addDays(today, 92),
      IdRuta: routes['AQP-UM'],
      Hora: '04:30',
      Sentido: 'S',
      IdBus: buses['TST-452'],
      IdConductor: drivers[2],
    };
    const made = await w.as('coordinator', 'POST', `${BASE}/horarios`, plan);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.result.viajes.map((v: Json) => v.Fecha)).toEqual(
      [0, 21, 42].map((d) => addDays(anchor, d)),
    );
    const before = await w.count('trip');
    const refused = await w.as('coordinator', 'POST', `${BASE}/horarios`, {
      ...plan,
      Hora: '05:00',
      IdBus: buses['TST-453'],
      IdConductor: drivers[0],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`The trip of ${anchor} cannot be made; no trip was made.`);
    expect(refused.body.errors.IdBus.message).toMatch(/SOAT requirement of vehicle TST-453 expired/);
    expect(await w.count('trip')).toBe(before);
    const weekly = types.find((r) => r.Descripcion.startsWith('ADMINISTRATIVO'));
    const notRoster = await w.as('coordinator', 'POST', `${BASE}/horarios`, {
      ...plan,
      IdTipoHorario: Number(weekly.IdTipoHorario),
    });
    expect(notRoster.body.errors.IdTipoHorario.message).toMatch(/must be a roster/);
  });

  it('boards from the signed manifest offline, syncs each reading once, lists the no-shows and the people on the road', async () => {
    const id = await newTrip({
      Fecha: today,
      Hora: '18:00',
      IdBus: buses['TST-452'],
      IdConductor: drivers[2],
    });
    const booked = crew.people.slice(81, 85);
    expect((await book(id, booked)).status).toBe(200);
    const key = (await w.as('admin', 'POST', '/api/acceso/equipo/1/clave')).body.result.key as string;
    const device = (method: 'GET' | 'POST', url: string, payload?: object) =>
      call(w.app, { method, url, payload, headers: { authorization: `Device ${key}` } });
    const listed = await device('GET', `${BASE}/bus/viajes?fecha=${today}`);
    expect(listed.body.result.map((v: Json) => v.IdViaje)).toContain(id);
    // Without a day, the site's today (the phone's calendar may be another zone's).
    const todays = await device('GET', `${BASE}/bus/viajes`);
    expect(todays.body.result.map((v: Json) => v.IdViaje)).toContain(id);
    const signed = (await device('GET', `${BASE}/bus/viajes/${id}/manifiesto`)).body.result;
    const keys = await signingKeys(w.db());
    expect(
      verify(null, Buffer.from(signed.payload), keys.publicKey, Buffer.from(signed.signature, 'base64')),
    ).toBe(true);
    const manifest = JSON.parse(signed.payload) as SignedManifest;
    expect(manifest.pasajeros.map((p) => p.IdPersona).sort()).toEqual([...booked].sort());
    const read = (person: number) => ({
      Numero: badges.get(person) as string,
      IdCliente: manifest.IdCliente,
      IdDivision: manifest.IdDivision,
    });
    const at = new Date(clock.now());
    const boarded = new Set<number>();
    expect(decideBoarding(manifest, read(booked[0]), at, boarded).reason).toBe('BOARD');
    boarded.add(booked[0]);
    expect(decideBoarding(manifest, read(booked[0]), at, boarded).reason).toBe('ALREADY_BOARDED');
    expect(decideBoarding(manifest, read(crew.people[85]), at, boarded).reason).toBe('NOT_BOOKED');
    expect(
      decideBoarding(manifest, read(crew.people[85]), at, boarded, { reason: 'Reemplazo de guardia' }).reason,
    ).toBe('EXCEPTION');
    expect(decideBoarding(manifest, { ...read(booked[1]), IdCliente: 999 }, at, boarded).reason).toBe(
      'OTHER_CLIENT',
    );
    const marks = [
      {
        IdMarca: 'b0000001-0000-4000-8000-000000000001',
        Credencial: read(booked[0]).Numero,
        FechaHora: at.toISOString(),
        Resultado: 'P',
        Motivo: 'BOARD',
      },
      {
        IdMarca: 'b0000001-0000-4000-8000-000000000002',
        Credencial: read(booked[1]).Numero,
        FechaHora: at.toISOString(),
        Resultado: 'P',
        Motivo: 'BOARD',
      },
      {
        IdMarca: 'b0000001-0000-4000-8000-000000000003',
        Credencial: read(crew.people[85]).Numero,
        FechaHora: at.toISOString(),
        Resultado: 'P',
        Motivo: 'EXCEPTION',
        Excepcion: 'Reemplazo de guardia',
      },
    ];
    const synced = await device('POST', `${BASE}/bus/viajes/${id}/abordajes`, { marcas: marks });
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    const resent = await device('POST', `${BASE}/bus/viajes/${id}/abordajes`, { marcas: marks });
    expect(resent.body.result.every((r: Json) => r.repeated)).toBe(true);
    expect(await w.count('trip-boarding', { IdViaje: id })).toBe(3);
    const aboard = await seats(id, ['A']);
    expect(aboard.map((s) => s.IdPersona).sort()).toEqual([booked[0], booked[1], crew.people[85]].sort());
    expect(aboard.find((s) => s.IdPersona === crew.people[85])).toMatchObject({
      Excepcion: 'S',
      Motivo: 'Reemplazo de guardia',
    });
    const departed = await w.as('coordinator', 'POST', `${BASE}/viajes/${id}/salida`);
    expect(departed.body.result.noPresentados.map((p: Json) => p.IdPersona)).toEqual(booked.slice(2));
    const board = await w.as('coordinator', 'GET', `${BASE}/tablero?fecha=${today}`);
    const row = board.body.result.viajes.find((v: Json) => v.IdViaje === id);
    expect(row).toMatchObject({
      Estado: 'S',
      Reservados: 5,
      Abordados: 3,
      Asientos: 45,
      Libres: 40,
      Placa: 'TST-452',
    });
    expect(
      board.body.result.enRuta
        .filter((p: Json) => p.IdViaje === id)
        .map((p: Json) => p.IdPersona)
        .sort(),
    ).toEqual([booked[0], booked[1], crew.people[85]].sort());
    // The roll call lists them apart from those on site: the security office all, a requester its company's.
    const away = await w.as('admin', 'GET', '/api/acceso/evacuacion/fuera');
    expect(
      away.body.result
        .filter((r: Json) => r.Donde === 'TST-452 · AQP-UM')
        .map((r: Json) => r.IdPersona)
        .sort(),
    ).toEqual([booked[0], booked[1], crew.people[85]].sort());
    const theirs = await w.as('requester', 'GET', '/api/acceso/evacuacion/fuera');
    expect(
      theirs.body.result.every(
        (r: Json) => r.Compania === away.body.result.find((a: Json) => a.IdPersona === booked[0]).Compania,
      ),
    ).toBe(true);
    expect((await w.as('coordinator', 'GET', '/api/acceso/evacuacion/fuera')).status).toBe(403);
    expect((await w.as('coordinator', 'POST', `${BASE}/viajes/${id}/llegada`)).status).toBe(200);
    expect(
      (await w.as('admin', 'GET', '/api/acceso/evacuacion/fuera')).body.result.filter(
        (r: Json) => r.Donde === 'TST-452 · AQP-UM',
      ),
    ).toEqual([]);
    const after = await w.as('coordinator', 'GET', `${BASE}/tablero?fecha=${today}`);
    expect(after.body.result.enRuta.filter((p: Json) => p.IdViaje === id)).toEqual([]);
    expect((await call(w.app, { method: 'GET', url: `${BASE}/bus/viajes/${id}/manifiesto` })).status).toBe(
      401,
    );
  });

  it('releases a demobilised worker’s seats to come; the coordinator sees who lost a seat and why', async () => {
    const id = await newTrip({ Fecha: addDays(today, 3), IdBus: buses['TST-452'], IdConductor: drivers[2] });
    const person = crew.people[80];
    expect((await book(id, [person, crew.people[86]])).status).toBe(200);
    const made = await w.as('requester', 'POST', '/api/acreditaciondesmovilizacion/crear', {
      IdEntidad: 'T',
      IdAcreditacion: crew.accreditations[80],
      Observacion: 'Fin de contrato',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const approved = await w.as(
      'authoriser',
      'POST',
      '/api/acreditaciondesmovilizacion/actualizarautorizador',
      {
        IdSolicitud: made.body.result.Solicitudes[0].IdSolicitud,
        Accion: 'APROBAR',
      },
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.revocados.filter((r: Json) => r.Recurso === 'trip-booking')).toHaveLength(1);
    expect((await seats(id)).map((s) => s.IdPersona)).toEqual([crew.people[86]]);
    expect(Number((await tripRow(id)).Reservados)).toBe(1);
    const lost = await w.as(
      'coordinator',
      'GET',
      `${BASE}/liberadas?desde=${today}&hasta=${addDays(today, 30)}`,
    );
    expect(lost.body.result.filter((r: Json) => r.IdPersona === person)).toEqual([
      expect.objectContaining({ IdViaje: id, Motivo: 'DESMOVILIZACION', Ruta: 'AQP-UM' }),
    ]);
    const refused = await book(id, [person]);
    expect(refused.status).toBe(400);
  });

  it('gives the manifest as a PDF, the period’s trips as Excel and the occupancy per route', async () => {
    const id = await newTrip({ Fecha: addDays(today, 4), IdBus: buses['TST-452'], IdConductor: drivers[2] });
    expect((await book(id, [crew.people[87], crew.people[88]])).status).toBe(200);
    const pdf = await w.as('coordinator', 'GET', `${BASE}/viajes/${id}/manifiesto`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.body.result.fileBase64, 'base64').subarray(0, 4).toString()).toBe('%PDF');
    const excel = await w.as(
      'coordinator',
      'GET',
      `${BASE}/reporte/excel?desde=${today}&hasta=${addDays(today, 30)}`,
    );
    const book_ = new ExcelJS.Workbook();
    await book_.xlsx.load(Buffer.from(excel.body.result.fileBase64, 'base64') as unknown as ArrayBuffer);
    const sheet = book_.worksheets[0];
    const plates: unknown[] = [];
    sheet.eachRow((row) => plates.push(row.getCell(5).value));
    expect(plates).toContain('TST-452');
    const report = await w.as(
      'coordinator',
      'GET',
      `${BASE}/reporte?desde=${addDays(today, 4)}&hasta=${addDays(today, 4)}`,
    );
    expect(report.body.result.rutas).toEqual([
      expect.objectContaining({ viajes: 1, asientos: 45, reservados: 2, ocupacion: 4.4 }),
    ]);
    expect(report.body.result.dias).toEqual([
      { Fecha: addDays(today, 4), asientos: 45, reservados: 2, abordados: 0 },
    ]);
    const long = await w.as(
      'coordinator',
      'GET',
      `${BASE}/reporte?desde=${today}&hasta=${addDays(today, 90)}`,
    );
    expect(long.status).toBe(400);
  });
});
