/**
 * `npm run bench:attendance`: a payroll period of attendance computed from the gates' markings, and
 * a late batch reflected, on SQLite and PostgreSQL.
 *
 *   npm run bench:attendance -- --people 5000 --markings 1000000 --days 31 --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect: `people` workers of a contractor, half on a 14×7 day roster
 * and half on a 14×7 night roster (anchors spread over the cycle); `markings` markings over the
 * `days` days before today (each working day an entry, out and back at lunch and an exit at the main
 * gate's turnstiles, an attendance control point, and the rest at the camp's and dining readers,
 * which are not); then:
 * 1. the whole period computed for everyone tracked (`computePeriod`, what closing a period and the
 *    nightly job run): seconds, days written, and the process's resident memory after it;
 * 2. a late batch of 1 000 markings (a turnstile that was offline: 500 people's exit and next entry)
 *    sent to `POST /api/acceso/marcaciones` of the server listening in this process: the time from
 *    sending it until every day it touched is recomputed (no marked day left), three times, once the
 *    server's start-up round (yesterday computed for everyone tracked) has ended.
 */
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database, DialectName } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import {
  attendanceTables,
  computePeriod,
  lanesOf,
  loadClientSetup,
} from '../src/server/features/attendance/compute.js';
import { ATTENDANCE_DAY_JOB } from '../src/server/features/attendance/worker.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { buildServer } from '../src/server/server.js';
import { DeviceKeys } from '../src/server/services/site/device-keys.js';
import { addDays, siteDate } from '../src/shared/dates.js';
import { eachDialect, registry } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '5000' },
    markings: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '31' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    /**
     * Writes CPU profiles (open them in Chrome's DevTools) of the period's computation to
     * `<file>.<dialect>.cpuprofile` and of the late batches to `<file>.<dialect>.late.cpuprofile`.
     */
    profile: { type: 'string' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const PEOPLE = Number(args.people);
const MARKINGS = Number(args.markings);
const DAYS = Number(args.days);

/** The instant of a wall-clock minute in Lima (UTC−5) from a day's midnight. */
const lima = (day: string, minute: number) => Date.parse(`${day}T00:00:00-05:00`) + minute * 60_000;
const clock = (instant: number) => {
  const wall = new Date(instant - 5 * 3_600_000).toISOString();
  return { Fecha: wall.slice(0, 10), Hora: wall.slice(11, 19), FechaHora: new Date(instant).toISOString() };
};

async function equipmentId(database: Database, description: string) {
  const row = (await database.db
    .selectFrom('system_equipment')
    .select('IdEquipo')
    .where('Descripcion', '=', description)
    .executeTakeFirstOrThrow()) as { IdEquipo: number };
  return Number(row.IdEquipo);
}

/** With --profile, starts a CPU profile of this process; the function it answers writes it to `<profile>.<suffix>`. */
async function profiling(suffix: string): Promise<() => Promise<void>> {
  const file = args.profile;
  if (!file) return async () => {};
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${file}.${suffix}`, JSON.stringify(profile));
    session.disconnect();
  };
}

async function run(database: Database, dialect: DialectName) {
  const db = database.db;
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  if (dialect === 'postgres') await sql.raw('set synchronous_commit = on').execute(db);
  const today = siteDate('PE');
  const from = addDays(today, -DAYS);
  const to = addDays(today, -1);

  // The workers and their rosters.
  const model = (await db
    .selectFrom('administration_person as p')
    .innerJoin('administration_company as c', 'c.IdCompania', 'p.IdCompania')
    .selectAll('p')
    .where('c.Alias', '=', 'SERMIPAC')
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const { IdPersona: _p, ...fields } = model;
  const schedules = Object.fromEntries(
    (
      (await db
        .selectFrom('attendance_schedule_type')
        .select(['IdTipoHorario', 'Descripcion'])
        .execute()) as Array<{
        IdTipoHorario: number;
        Descripcion: string;
      }>
    ).map((s) => [s.Descripcion, Number(s.IdTipoHorario)]),
  );
  const people: Array<{ id: number; document: string; night: boolean; anchor: string }> = [];
  for (let i = 0; i < PEOPLE; i += 500) {
    const rows = Array.from({ length: Math.min(500, PEOPLE - i) }, (_, j) => ({
      ...fields,
      Documento: `AS${String(i + j).padStart(8, '0')}`,
    }));
    const made = (await db
      .insertInto('administration_person')
      .values(rows)
      .returning('IdPersona')
      .execute()) as Array<{
      IdPersona: number;
    }>;
    const batch = made.map((r, j) => ({
      id: Number(r.IdPersona),
      document: rows[j].Documento,
      night: (i + j) % 2 === 1,
      anchor: addDays(from, -((i + j) % 21)),
    }));
    people.push(...batch);
    await db
      .insertInto('attendance_schedule_assignment')
      .values(
        batch.map((p) => ({
          IdCliente: 1,
          IdPersona: p.id,
          IdTipoHorario: schedules[p.night ? 'GUARDIA NOCHE 14X7' : 'GUARDIA DÍA 14X7'],
          FechaInicio: addDays(from, -60),
          FechaAncla: p.anchor,
          Activo: 'S',
        })),
      )
      .execute();
  }

  // The markings: a working day's four at the turnstiles, the rest at readers attendance does not count.
  const turnstiles = [
    await equipmentId(database, 'TORNIQUETE GARITA PRINCIPAL 01'),
    await equipmentId(database, 'TORNIQUETE GARITA PRINCIPAL 02'),
  ];
  const others = [
    await equipmentId(database, 'LECTOR CAMPAMENTO SAN GABRIEL'),
    await equipmentId(database, 'LECTOR COMEDOR CENTRAL SAN GABRIEL'),
  ];
  const started = Date.now();
  let written = 0;
  let pending: Record<string, unknown>[] = [];
  const flush = async () => {
    for (let i = 0; i < pending.length; i += 1000)
      await db
        .insertInto('access_marking')
        .values(pending.slice(i, i + 1000))
        .execute();
    written += pending.length;
    pending = [];
  };
  const perDay = Math.max(4, Math.round(MARKINGS / (PEOPLE * DAYS * (14 / 21))));
  outer: for (let d = 0; d < DAYS; d++) {
    const day = addDays(from, d);
    for (const [n, p] of people.entries()) {
      const index = ((((Date.parse(day) - Date.parse(p.anchor)) / 86_400_000) % 21) + 21) % 21;
      if (index >= 14) continue;
      const start = p.night ? 19 * 60 : 7 * 60;
      const jitter = ((n * 7 + d * 13) % 31) - 15;
      const times: Array<[number, 'E' | 'S', number]> = [
        [start - 10 + jitter, 'E', turnstiles[0]],
        [start + 300, 'S', turnstiles[1]],
        [start + 350, 'E', turnstiles[0]],
        [start + 12 * 60 + 5 + jitter, 'S', turnstiles[1]],
      ];
      for (let k = 4; k < perDay; k++) times.push([start + 30 + k * 45, k % 2 ? 'S' : 'E', others[k % 2]]);
      for (const [minute, direction, equipment] of times) {
        pending.push({
          IdCliente: 1,
          IdDivision: 1,
          IdPersona: p.id,
          ...clock(lima(day, minute)),
          Resultado: 'P',
          IdEquipo: equipment,
          Origen: 'E',
          Funcion: direction,
          TipoMarcacion: 'T',
          Automatico: 'S',
          EnLinea: 'S',
        });
        if (written + pending.length >= MARKINGS) {
          await flush();
          break outer;
        }
      }
      if (pending.length >= 5000) await flush();
    }
  }
  await flush();
  console.log(
    `  loaded ${written.toLocaleString('en')} markings for ${PEOPLE} people in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  // As a database in use is: its statistics up to date (autovacuum's analyze would run on its own
  // after such a load), as the other benches measure.
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);

  // 1. The period.
  const tables = attendanceTables(registry);
  const setup = await loadClientSetup(db, tables, 1, Date.now(), lanesOf(dialect));
  const stopProfile = await profiling(`${dialect}.cpuprofile`);
  const t0 = performance.now();
  const days = await computePeriod(db, tables, setup, from, to);
  const seconds = (performance.now() - t0) / 1000;
  await stopProfile();
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  console.log(
    `  period of ${DAYS} days computed: ${days.toLocaleString('en')} days written in ${seconds.toFixed(2)} s (aim 10 s); resident memory ${rss} MB`,
  );

  // 2. Late batches through the device API, the server in this process.
  const app: FastifyInstance = await buildServer({ database, registry });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const key = (await new DeviceKeys(db).issue(turnstiles[0], 'BENCH')).key;
    const doors = (await db
      .selectFrom('access_door as d')
      .innerJoin('access_control_point_equipos as e', 'e.IdPuntoControl', 'd.IdPuntoControl')
      .select(['d.IdPuerta', 'd.Sentido'])
      .where('e.Valor', '=', turnstiles[0])
      .execute()) as Array<{ IdPuerta: number; Sentido: string }>;
    const door = (s: string) => Number(doors.find((d) => d.Sentido === s)?.IdPuerta);
    const leftover = async () =>
      Number(
        (
          (await db
            .selectFrom('access_marked_day')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()) as {
            n: number;
          }
        ).n,
      );
    // The server's start-up round computes yesterday for everyone tracked (the days nobody marked,
    // what it does once a day): not a batch's work, so it is waited for, and said, before the first.
    const startup = performance.now();
    for (;;) {
      const lease = (await db
        .selectFrom(registry.require('job-lease').table)
        .select(['UltimaFecha', 'Titular'])
        .where('IdCliente', '=', 1)
        .where('Trabajo', '=', ATTENDANCE_DAY_JOB)
        .executeTakeFirst()) as { UltimaFecha: string | null; Titular: string | null } | undefined;
      if (lease?.UltimaFecha && lease.UltimaFecha >= to && lease.Titular == null && (await leftover()) === 0)
        break;
      if (performance.now() - startup > 600_000) throw new Error("the server's start-up round did not end");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(
      `  the server's start-up round (yesterday for everyone tracked) ended ${((performance.now() - startup) / 1000).toFixed(2)} s after it listened`,
    );
    const times: number[] = [];
    const answered: number[] = [];
    const stopLateProfile = await profiling(`${dialect}.late.cpuprofile`);
    for (let round = 0; round < 3; round++) {
      const day = addDays(today, -2 - round);
      const crew = people.slice(round * 500, round * 500 + 500);
      const Marcas = crew.flatMap((p, i) => [
        {
          IdMarca: `tarde-${round}-${i}-s`,
          IdPuerta: door('S'),
          Funcion: 'S',
          FechaHora: new Date(lima(day, 17 * 60 + (i % 50))).toISOString(),
          Documento: p.document,
          Resultado: 'P',
        },
        {
          IdMarca: `tarde-${round}-${i}-e`,
          IdPuerta: door('E'),
          Funcion: 'E',
          FechaHora: new Date(lima(day, 17 * 60 + 30 + (i % 50))).toISOString(),
          Documento: p.document,
          Resultado: 'P',
        },
      ]);
      const sent = performance.now();
      const response = await fetch(`${address}/api/acceso/marcaciones`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${key}` },
        body: JSON.stringify({ Marcas }),
      });
      if (response.status !== 200) throw new Error(`batch: ${response.status} ${await response.text()}`);
      answered.push(performance.now() - sent);
      while ((await leftover()) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      times.push(performance.now() - sent);
    }
    await stopLateProfile();
    console.log(
      `  late batch of 1 000 markings: answered in ${answered.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}; reflected in ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (aim 1 s)`,
    );
  } finally {
    await app.close();
  }
}

await eachDialect(args.dialects, args['postgres-url'], async ({ database }, dialect) => {
  try {
    await run(database, dialect);
  } finally {
    await database.close();
  }
});
