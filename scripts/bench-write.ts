/**
 * `npm run bench:write`: a person's create and delete through the API, one pair at a time and 16
 * pairs at once, with the statements each sends, on SQLite and on PostgreSQL.
 *
 *   npm run bench:write -- --n 100000 --pairs 500 --seconds 5 --dialects sqlite,postgres
 *
 * On a throw-away database per dialect: the demo data and N more persons over 200 contractors
 * (their employments written by the server's start, as for people registered before employments
 * were kept), the server listening on 127.0.0.1 in this process, the administrator signed in.
 * Each pair creates a person (the fields the console's form sends) and deletes it. Statements are
 * counted as the database driver sends them, the transaction's begin and commit included.
 */
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../src/server/server.js';
import { report, request } from './bench/measure.js';
import { eachDialect, load, registry, signIn } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    pairs: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '5' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const PAIRS = Number(args.pairs);
const SECONDS = Number(args.seconds);
const AT_ONCE = 16;

/** p50/p95/p99 of some times in ms. */
function latency(label: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2);
  console.log(
    `  ${label.padEnd(46)} ${''.padStart(16)}   p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   p99 ${at(0.99)} ms`,
  );
}

await eachDialect(args.dialects, args['postgres-url'], async (target) => {
  const { database } = target;
  const { companies } = await load(database, Number(args.n));
  const app: FastifyInstance = await buildServer({ database, registry, auth: { challenge: false } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const token = await signIn(url);
    const dni = (await database.db
      .selectFrom(registry.require('document-type').table)
      .select('IdTipoDocumento')
      .where('IdPais', '=', 'PE')
      .where('Alias', '=', 'DNI')
      .executeTakeFirstOrThrow()) as { IdTipoDocumento: number };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    let serial = 0;
    /** One pair: its create's and its delete's times in ms. */
    const pair = async (): Promise<[number, number]> => {
      const n = serial++;
      const t0 = performance.now();
      const created = await request(`${url}/api/rest/person`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          IdTipoDocumento: dni.IdTipoDocumento,
          Documento: String(60_000_000 + n),
          Apellido: 'QUISPE HUAMÁN',
          Nombre: 'JUAN CARLOS',
          IdCompania: companies[n % companies.length],
          Sexo: 'M',
          FechaNacimiento: '1988-03-02',
          IdPaisNacimiento: 'PE',
          IdPaisResidencia: 'PE',
          TelefonoMovil: '987654321',
          Condicion: 'T',
          Visita: 'N',
        }),
      });
      const body = (await created.json()) as { IdPersona: number };
      if (created.status !== 201)
        throw new Error(`create answered ${created.status}: ${JSON.stringify(body)}`);
      const t1 = performance.now();
      const deleted = await request(`${url}/api/rest/person/${body.IdPersona}`, {
        method: 'DELETE',
        headers: { authorization: headers.authorization },
      });
      if (deleted.status !== 200)
        throw new Error(`delete answered ${deleted.status}: ${await deleted.text()}`);
      await deleted.arrayBuffer();
      return [t1 - t0, performance.now() - t1];
    };

    // Warm up (prepared statements, caches), then count one pair's statements.
    for (let i = 0; i < 20; i++) await pair();
    const sent: string[] = [];
    const stop = database.onStatement((text) => sent.push(text));
    await pair();
    stop();
    const deleteAt = sent.findIndex((text, i) => i > 0 && /^select \* from "auth_session"/.test(text));
    console.log(
      `  statements: create ${deleteAt}, delete ${sent.length - deleteAt} (the session's read, begin and commit included)`,
    );

    const creates: number[] = [];
    const deletes: number[] = [];
    const pairs: number[] = [];
    let started = performance.now();
    for (let i = 0; i < PAIRS; i++) {
      const [c, d] = await pair();
      creates.push(c);
      deletes.push(d);
      pairs.push(c + d);
    }
    let elapsed = performance.now() - started;
    report('one at a time: create + delete', pairs, elapsed, 'pairs/s');
    latency('  of which the create', creates);
    latency('  of which the delete', deletes);

    const together: number[] = [];
    started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (performance.now() < until) {
          const [c, d] = await pair();
          together.push(c + d);
        }
      }),
    );
    elapsed = performance.now() - started;
    report(`${AT_ONCE} at once: create + delete`, together, elapsed, 'pairs/s');
  } finally {
    await app.close();
    await database.close();
  }
});
