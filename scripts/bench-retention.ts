/**
 * `npm run bench:retention`: the retention job over 100 000 people, on SQLite and PostgreSQL.
 *
 *   npm run bench:retention -- --people 100000 --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect, `people` more persons; half of them ceased in 2010 (their
 * relation ended long before every demo rule's months), and a legal hold on 1 000 of those. Then,
 * in this process, as the daily job runs it (one transaction): a dry run, the run that anonymises
 * every class of the ceased people not held, and a second run that finds nothing left to do. For
 * each: seconds, people anonymised and kept, and the process's resident memory after it.
 */
import { parseArgs } from 'node:util';
import { featurePersonalData } from '../src/server/features/index.js';
import { RetentionJob } from '../src/server/features/privacy/retention.js';
import { eachDialect, load, registry } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const PEOPLE = Number(args.people);
const HELD = 1_000;
const mb = () => Math.round(process.memoryUsage().rss / 1_048_576);

await eachDialect(args.dialects, args['postgres-url'], async ({ database }) => {
  const { clientId } = await load(database, PEOPLE);
  const person = registry.require('person').table;
  const bench = (await database.db
    .selectFrom(person)
    .select('IdPersona')
    .where('IdUsuarioCreacion', '=', 'BENCH')
    .orderBy('IdPersona')
    .execute()) as Array<{ IdPersona: number }>;
  const ceased = bench.filter((_, i) => i % 2 === 0).map((p) => p.IdPersona);
  for (let i = 0; i < ceased.length; i += 5_000)
    await database.db
      .updateTable(person)
      .set({ Condicion: 'C', FechaCese: '2010-06-30' })
      .where('IdPersona', 'in', ceased.slice(i, i + 5_000))
      .execute();
  const now = new Date().toISOString();
  await database.db
    .insertInto(registry.require('legal-hold').table)
    .values(
      ceased.slice(0, HELD).map((IdPersona) => ({
        IdCliente: clientId,
        IdPersona,
        Motivo: 'PROCESO JUDICIAL',
        FechaDesde: '2020-01-01',
        Activo: 'S',
        IdUsuarioCreacion: 'BENCH',
        FechaCreacion: now,
      })),
    )
    .execute();
  console.log(`  ${ceased.length} ceased in 2010, ${HELD} of them on a legal hold`);
  const features = featurePersonalData({ registry, notifier: undefined as never, now: Date.now });
  const job = new RetentionJob(database, registry, features);
  const principal = { userId: 'BENCH', clientId };
  for (const [label, dryRun] of [
    ['dry run', true],
    ['run', false],
    ['second run', false],
  ] as const) {
    const started = process.hrtime.bigint();
    const run = await job.runNow(principal, dryRun);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const identity = run.classes.identity;
    console.log(
      `  ${label.padEnd(10)} ${seconds.toFixed(1).padStart(6)} s  anonymised ${String(identity?.anonymised ?? 0).padStart(6)} (identity; people ${run.people})  kept ${JSON.stringify(identity?.kept ?? {})}  rss ${mb()} MB`,
    );
  }
  const left = (await database.db
    .selectFrom(person)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('IdPersona', 'in', ceased.slice(HELD, HELD + 5_000))
    .where('Apellido', '<>', 'ANONIMIZADO')
    .executeTakeFirstOrThrow()) as { n: number | string };
  console.log(`  ceased and not held still named: ${Number(left.n)} of a sample of 5 000`);
});
