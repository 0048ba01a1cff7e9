import { describe, expect, it } from 'vitest';
import { RetentionJob } from '../../src/server/features/privacy/retention.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const CLASSES = ['biometric', 'contact', 'criminal', 'financial', 'health', 'identity'];

describe.each(DIALECTS)('the retention job on %s', (dialect) => {
  /** People made for the test, by what should become of them. */
  const people: Record<'expired' | 'held' | 'requested' | 'recent', number> = {
    expired: 0,
    held: 0,
    requested: 0,
    recent: 0,
  };
  let request: number;
  const w = world(dialect, {
    users: { admin: 'ADMIN', authoriser: 'AUTORIZADOR' },
    ready: async (w) => {
      const person = w.table('person');
      const model = (await w
        .db()
        .selectFrom(person)
        .selectAll()
        .orderBy('IdPersona')
        .executeTakeFirstOrThrow()) as Json;
      const make = async (suffix: string, cessation: string) => {
        const { IdPersona: _id, ...row } = model;
        const made = (await w
          .db()
          .insertInto(person)
          .values({
            ...row,
            Documento: `9${suffix}${dialect === 'sqlite' ? '1' : '2'}`.padEnd(8, '0'),
            Apellido: `RETENIDO ${suffix}`,
            Nombre: 'PRUEBA',
            FechaNacimiento: '1980-01-01',
            TelefonoMovil: '999888777',
            Email: `r${suffix}@correo.pe`,
            Alergia: 'POLVO',
            Discapacidad: 'NINGUNA',
            CodigoPlanilla: `PL${suffix}`,
            Condicion: 'C',
            FechaCese: cessation,
          } as never)
          .returning('IdPersona')
          .executeTakeFirstOrThrow()) as Json;
        return Number(made.IdPersona);
      };
      people.expired = await make('1', '2014-06-30');
      people.held = await make('2', '2014-06-30');
      people.requested = await make('3', '2014-06-30');
      people.recent = await make('4', '2026-06-30');
      await w
        .db()
        .insertInto(w.table('legal-hold'))
        .values({
          IdCliente: model.IdCliente,
          IdPersona: people.held,
          Motivo: 'DEMANDA LABORAL EN CURSO',
          FechaDesde: '2025-01-01',
          Activo: 'S',
          IdUsuarioCreacion: 'ADMIN',
          FechaCreacion: new Date().toISOString(),
        } as never)
        .execute();
      // An open request of the third (a pending one of the demo's, made theirs).
      const open = (await w
        .db()
        .selectFrom(w.table('request'))
        .select('IdSolicitud')
        .where('EstadoAprobacion', '=', 'P')
        .where('IdEntidad', '=', 'T')
        .orderBy('IdSolicitud')
        .executeTakeFirstOrThrow()) as Json;
      request = Number(open.IdSolicitud);
      await w
        .db()
        .updateTable(w.table('request'))
        .set({ IdPersona: people.requested } as never)
        .where('IdSolicitud', '=', request)
        .execute();
    },
  });

  const everyone = async () =>
    new Map(
      ((await w.db().selectFrom(w.table('person')).selectAll().execute()) as Json[]).map((r) => [
        Number(r.IdPersona),
        JSON.stringify({ ...r, IdUsuarioModificacion: null, FechaModificacion: null }),
      ]),
    );
  const actions = () =>
    w.db().selectFrom(w.table('retention-action')).selectAll().orderBy('ClaseDato').execute() as Promise<
      Json[]
    >;

  it('shows in a dry run whom it would anonymise, by class, and whom it keeps and why, changing nothing', async () => {
    const before = await everyone();
    const res = await w.as('admin', 'POST', '/api/privacidad/conservacion/simular');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = res.body.result;
    expect(run.dryRun).toBe(true);
    expect(Object.keys(run.classes).sort()).toEqual(CLASSES);
    for (const dataClass of CLASSES)
      expect(run.classes[dataClass], dataClass).toEqual({
        anonymised: 1,
        kept: { legalHold: 1, request: 1 },
      });
    expect(await everyone()).toEqual(before);
    expect(await actions()).toEqual([]);
    const recorded = (await w
      .db()
      .selectFrom(w.table('retention-run'))
      .selectAll()
      .where('IdEjecucionConservacion', '=', run.id)
      .executeTakeFirstOrThrow()) as Json;
    expect(recorded).toMatchObject({ Simulacion: 'S', IdUsuario: 'ADMIN', Personas: 1 });
    expect(JSON.parse(recorded.Detalle).classes.health).toEqual({
      anonymised: 1,
      kept: { legalHold: 1, request: 1 },
    });
  });

  it('refuses the runs to a profile without the retention rules', async () => {
    for (const path of ['simular', 'ejecutar'])
      expect((await w.as('authoriser', 'POST', `/api/privacidad/conservacion/${path}`)).status).toBe(403);
  });

  it('anonymises exactly the expired person, once, when two servers run the day at the same time', async () => {
    const before = await everyone();
    const servers = ['uno', 'dos'].map(
      (name) =>
        new RetentionJob(w.t.db.database, w.registry, w.app.personalData, Date.now, `servidor-${name}`),
    );
    const runs = (await Promise.all(servers.map((s) => s.runDaily()))).flat();
    expect(runs).toHaveLength(1);
    expect(runs[0].people).toBe(1);
    const done = await actions();
    expect(done.map((a) => [Number(a.IdPersona), a.ClaseDato])).toEqual(
      CLASSES.map((c) => [people.expired, c]),
    );

    const after = await everyone();
    for (const [id, row] of before) if (id !== people.expired) expect(after.get(id), String(id)).toBe(row);
    const gone = JSON.parse(after.get(people.expired) as string);
    expect(gone).toMatchObject({
      Apellido: 'ANONIMIZADO',
      Nombre: 'ANONIMIZADO',
      Documento: `ANON-${people.expired}`,
      FechaNacimiento: null,
      TelefonoMovil: null,
      Email: null,
      Alergia: null,
      Discapacidad: null,
      IdTipoSangre: null,
      CodigoPlanilla: null,
      Foto: null,
      // What counts keep: the person's key, kind, company and dates.
      IdPersona: people.expired,
      Condicion: 'C',
      FechaCese: '2014-06-30',
    });
    expect(gone.Sexo).toBe(JSON.parse(before.get(people.expired) as string).Sexo);
  });

  it('finds nothing more to do on a second run the same day, and says whom it still keeps', async () => {
    const before = await everyone();
    const res = await w.as('admin', 'POST', '/api/privacidad/conservacion/ejecutar');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.people).toBe(0);
    for (const dataClass of CLASSES)
      expect(res.body.result.classes[dataClass]).toEqual({
        anonymised: 0,
        kept: { legalHold: 1, request: 1 },
      });
    expect(await everyone()).toEqual(before);
    expect(await actions()).toHaveLength(CLASSES.length);
  });

  it('anonymises a person once their legal hold ends and their request is decided', async () => {
    await w
      .db()
      .updateTable(w.table('legal-hold'))
      .set({ FechaHasta: '2025-06-30' } as never)
      .where('IdPersona', '=', people.held)
      .execute();
    const res = await w.as('admin', 'POST', '/api/privacidad/conservacion/ejecutar');
    expect(res.body.result.people).toBe(1);
    expect(res.body.result.classes.identity).toEqual({ anonymised: 1, kept: { request: 1 } });
    const held = (await w
      .db()
      .selectFrom(w.table('person'))
      .select(['Apellido', 'Alergia'])
      .where('IdPersona', '=', people.held)
      .executeTakeFirstOrThrow()) as Json;
    expect(held).toEqual({ Apellido: 'ANONIMIZADO', Alergia: null });
    const requested = (await w
      .db()
      .selectFrom(w.table('person'))
      .select('Apellido')
      .where('IdPersona', '=', people.requested)
      .executeTakeFirstOrThrow()) as Json;
    expect(requested.Apellido).toBe('RETENIDO 3');
  });
});
