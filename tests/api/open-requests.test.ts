import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, copyContract } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const RACERS = 8;

/**
 * One open request per holder and kind, whoever asks at the same time: eight identical creates
 * fired together for one worker (or vehicle) make one request; the seven others get the refusal a
 * single second create gets, on SQLite (one writer) and on PostgreSQL (eight connections at once).
 */
describe.each(DIALECTS)(
  'one open request per holder and kind, under concurrent creates, on %s',
  (dialect) => {
    let t: TestApp;
    let cat: Awaited<ReturnType<typeof catalogue>>;
    let requester: string;
    const today = siteDate('PE');
    /** Accredited workers and vehicles of the requester's company, each used by one test only. */
    let workers: Json[] = [];
    let vehicles: Json[] = [];
    /** The requester's company. */
    let company: number;

    const post = (url: string, payload: object) =>
      call(t.app, { method: 'POST', url, token: requester, payload });
    const table = (name: string) => t.registry.require(name).table;
    const db = () => t.db.database.db;

    /** The calls' answers, all fired at once: the one success and the refusals. */
    const race = async (url: string, payload: object) => {
      const answers = await Promise.all(Array.from({ length: RACERS }, () => post(url, payload)));
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      expect(won.length, JSON.stringify(answers.map((a) => [a.status, a.body.messageKey]))).toBe(1);
      expect(lost).toHaveLength(RACERS - 1);
      return { won: won[0].body.result, lost };
    };
    /** The holder's open requests of a kind, as stored. */
    const open = async (holder: { IdPersona?: number; IdVehiculo?: number }, kind: string) => {
      let qb = db()
        .selectFrom(table('request'))
        .select('IdSolicitud')
        .where('TipoSolicitud', '=', kind)
        .where('EstadoAprobacion', 'in', ['I', 'P', 'O']);
      qb = holder.IdPersona
        ? qb.where('IdPersona', '=', holder.IdPersona)
        : qb.where('IdVehiculo', '=', holder.IdVehiculo as number);
      return ((await qb.execute()) as Json[]).map((r) => r.IdSolicitud as number);
    };
    /** A refusal as a second single call gets it: 409 naming the open request. */
    const expectDuplicate = (lost: Json[], id: number) => {
      for (const answer of lost) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body).toMatchObject({
          code: 'DUPLICATE',
          messageKey: 'accreditation.refusals.openRequestExists',
          params: { id },
        });
        expect(answer.body.message).toBe(`There is already an open request (${id}) for this contract.`);
      }
    };
    /** A refusal of a row of a demobilisation or contract call: 400 naming the row and the open request. */
    const expectRowRefused = (lost: Json[], id: number) => {
      for (const answer of lost) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body.messageKey).toBe('demobilisation.refusals.rowsStopped');
        expect(answer.body.errors['Acreditaciones.0']).toMatchObject({
          messageKey: 'accreditation.refusals.openRequestExists',
          params: { id },
        });
      }
    };

    /** A worker of the company, as its requester registers one. */
    const makePerson = async (document: string, name: string, company: number) => {
      const res = await post('/api/rest/person', {
        IdTipoDocumento: cat.dni,
        Documento: document,
        Apellido: 'Ccori Huaman',
        Nombre: name,
        IdCompania: company,
        Sexo: 'F',
        FechaNacimiento: '1991-07-21',
        IdPaisNacimiento: 'PE',
        IdPaisResidencia: 'PE',
        TelefonoMovil: '987111222',
        Condicion: 'T',
        Visita: 'N',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.IdPersona as number;
    };

    beforeAll(async () => {
      t = await startTestApp(dialect);
      const admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
      requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
      cat = await catalogue(t.app, admin);
      const candidates = async (kind: 'T' | 'V') => {
        const res = await post('/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
          IdEntidad: kind,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.result as Json[]).filter((r) => r.Estado === 'A');
      };
      // One accreditation per holder, so each test's holder is its own.
      const distinct = (rows: Json[], key: string) =>
        rows.filter((r, index) => rows.findIndex((o) => o[key] === r[key]) === index);
      const demo = distinct(await candidates('T'), 'IdPersona');
      vehicles = distinct(await candidates('V'), 'IdVehiculo');
      expect(vehicles.length).toBeGreaterThanOrEqual(1);
      // The demo's workers (who hold requirements, to renew), then three more of the company,
      // accredited as the first one is, for the demobilisation and contract calls.
      const accreditation = table('accreditation');
      const full = (await db()
        .selectFrom(accreditation)
        .selectAll()
        .where('IdAcreditacion', '=', demo[0].IdAcreditacion)
        .executeTakeFirstOrThrow()) as Json;
      company = full.IdCompania;
      const extra: Json[] = [];
      for (const [i, document] of ['72418841', '72418852', '72418863'].entries()) {
        const person = await makePerson(document, `Obrero ${'ABC'[i]}`, full.IdCompania);
        const { IdAcreditacion: _, ...copy } = full;
        const made = (await db()
          .insertInto(accreditation)
          .values({ ...copy, IdPersona: person, Estado: 'A' })
          .returningAll()
          .executeTakeFirstOrThrow()) as Json;
        extra.push(made);
      }
      workers = [...extra, ...demo];
    });
    afterAll(async () => {
      await t?.close();
    });

    it('mobilisation: eight requests for one worker on one contract make one', async () => {
      const contract = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001');
      const person = await makePerson('72418830', 'Elena', company);
      const { won, lost } = await race('/api/acreditacionsolicitud/crearsolicitante', {
        IdEntidad: 'T',
        IdContrato: contract.IdContrato,
        IdPerfilAcreditacion: cat.worker,
        FechaInicio: today,
        FechaFin: addDays(today, 120),
        IdTipoDocumento: cat.dni,
        Documento: '72418830',
        Apellido: 'Ccori Huaman',
        Nombre: 'Elena',
        Sexo: 'F',
        FechaNacimiento: '1991-07-21',
        IdPaisNacimiento: 'PE',
        IdPaisResidencia: 'PE',
        TelefonoMovil: '987111222',
      });
      expectDuplicate(lost, won.IdSolicitud);
      expect(await open({ IdPersona: person }, 'M')).toEqual([won.IdSolicitud]);
    });

    it('demobilisation: eight for one worker make one, and eight for one vehicle make one', async () => {
      for (const row of [workers[0], vehicles[0]]) {
        const { won, lost } = await race('/api/acreditaciondesmovilizacion/crear', {
          Acreditaciones: [row.IdAcreditacion],
          Observacion: 'Fin de la obra',
        });
        const [made] = won.Solicitudes as Json[];
        expectRowRefused(lost, made.IdSolicitud);
        expect(await open(row, 'D')).toEqual([made.IdSolicitud]);
      }
    });

    it('requirement update: eight renewals of one requirement of one worker make one', async () => {
      let found: { row: Json; requirement: number } | undefined;
      for (const row of workers.slice(3)) {
        const held = await call(t.app, {
          url: `/api/acreditacionrequisitosolicitud/requisitosacreditados?IdEntidad=T&IdPersona=${row.IdPersona}`,
          token: requester,
        });
        const sctr = (held.body.result as Json[]).find((r) => r.Requisito === 'SCTR SALUD');
        if (sctr) {
          found = { row, requirement: sctr.IdRequisito };
          break;
        }
      }
      expect(found).toBeDefined();
      const { row, requirement } = found as { row: Json; requirement: number };
      const { won, lost } = await race('/api/acreditacionrequisitosolicitud/crear', {
        IdEntidad: 'T',
        IdPersona: row.IdPersona,
        IdRequisito: requirement,
      });
      expectDuplicate(lost, won.IdSolicitud);
      expect(await open(row, 'A')).toEqual([won.IdSolicitud]);
    });

    it('contract extension and contract change: eight for one worker make one of each', async () => {
      const [, extended, moved] = workers;
      // Accreditations that end in a month, on contracts that last longer.
      for (const row of [extended, moved])
        await db()
          .updateTable(table('accreditation'))
          .set({ FechaFin: addDays(today, 30) })
          .where('IdAcreditacion', '=', row.IdAcreditacion)
          .execute();
      const extension = await race('/api/acreditacioncontrato/ampliar', {
        Acreditaciones: [extended.IdAcreditacion],
        FechaFin: addDays(today, 50),
      });
      const [extensionMade] = extension.won.Solicitudes as Json[];
      expectRowRefused(extension.lost, extensionMade.IdSolicitud);
      expect(await open(extended, 'E')).toEqual([extensionMade.IdSolicitud]);

      // A second contract of the company in the division (a copy of the worker's, numbered apart).
      const other = await copyContract(db(), t.registry, moved.IdContrato, '-R');
      const change = await race('/api/acreditacioncontrato/cambiar', {
        Acreditaciones: [moved.IdAcreditacion],
        IdContrato: other,
        FechaFin: addDays(today, 40),
      });
      const [changeMade] = change.won.Solicitudes as Json[];
      expectRowRefused(change.lost, changeMade.IdSolicitud);
      expect(await open(moved, 'C')).toEqual([changeMade.IdSolicitud]);
    });
  },
);
