/**
 * Who decides what (src/shared/approvals.ts), through every decision call, single and mass:
 * - each call decides only its own kind of request (mobilisation, renewal, demobilisation,
 *   contract extension, contract change): any other kind is not found there, and nothing changes;
 * - a whole request is decided only by an approver to whom all of it belongs, in their turn:
 *   SUPERVISOR (the demo's occupational-health approver of workers) approves, observes, rejects
 *   or returns none of them; AUTORIZADOR (an approver of every requirement type) decides each; an
 *   approver of the second turn decides nothing while the first turn's lines are open.
 */
import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { copyContract, pdf, png, sendRenewal, upload } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const REQUESTS = '/api/acreditacionsolicitud';
const RENEWALS = '/api/acreditacionrequisitosolicitud';
const DEMOBILISATIONS = '/api/acreditaciondesmovilizacion';
const CONTRACTS = '/api/acreditacioncontrato';

type Kind = 'M' | 'A' | 'D' | 'E' | 'C';
const ACTIONS = ['APROBAR', 'OBSERVAR', 'RECHAZAR', 'DEVOLVER'] as const;

/** Every decision call: its kind, and the body that decides request `id` with `action`. */
const CALLS: Array<{ name: string; kind: Kind; url: string; body: (id: number, action: string) => object }> =
  [
    {
      name: 'mobilisation',
      kind: 'M',
      url: `${REQUESTS}/actualizarsolicitanteautorizador`,
      body: (id, Accion) => ({ IdSolicitud: id, Accion, Detalle: [], MotivoRechazo: 'NO CORRESPONDE' }),
    },
    {
      name: 'renewal',
      kind: 'A',
      url: `${RENEWALS}/actualizarautorizador`,
      body: (id, Accion) => ({ IdSolicitud: id, Accion, Observacion: 'NO CORRESPONDE' }),
    },
    {
      name: 'renewal, mass',
      kind: 'A',
      url: `${RENEWALS}/actualizarautorizadormasivo`,
      body: (id, Accion) => ({ Solicitudes: [id], Accion, Observacion: 'NO CORRESPONDE' }),
    },
    ...(['D', 'E', 'C'] as const).flatMap((kind) => {
      const base = kind === 'D' ? DEMOBILISATIONS : CONTRACTS;
      const tipo = kind === 'D' ? {} : { Tipo: kind };
      return [
        {
          name: `${kind}`,
          kind,
          url: `${base}/actualizarautorizador`,
          body: (id: number, Accion: string) => ({ ...tipo, IdSolicitud: id, Accion, MotivoRechazo: 'NO' }),
        },
        {
          name: `${kind}, mass`,
          kind,
          url: `${base}/actualizarautorizadormasivo`,
          body: (id: number, Accion: string) => ({ ...tipo, Solicitudes: [id], Accion, MotivoRechazo: 'NO' }),
        },
      ];
    }),
  ];

describe.each(DIALECTS)('decision rights on %s', (dialect) => {
  const w = world(dialect, {
    users: {
      requester: 'SOLICITANTE',
      authoriser: 'AUTORIZADOR',
      supervisor: 'SUPERVISOR',
    },
    division: SOUTH,
    ready: async () => {
      south = (
        (await db()
          .selectFrom(table('division'))
          .select('IdDivision')
          .where('Division', '=', SOUTH)
          .executeTakeFirstOrThrow()) as Json
      ).IdDivision;
      // A mobilisation of a worker the demo left pending.
      pending.M = await pendingMobilisation(south);

      const rows = (
        await as('requester', 'POST', `${DEMOBILISATIONS}/filtrarNuevoSolicitante`, { IdEntidad: 'T' })
      ).body.result.filter((r: Json) => r.Estado === 'A') as Json[];
      const sctrOf = async (person: number) =>
        (
          (await as('requester', 'GET', `${RENEWALS}/requisitosacreditados?IdEntidad=T&IdPersona=${person}`))
            .body.result as Json[]
        ).find((r) => r.Requisito === 'SCTR SALUD');
      let renewed: Json | undefined;
      for (const row of rows)
        if (await sctrOf(row.IdPersona)) {
          renewed = row;
          break;
        }
      expect(renewed).toBeDefined();
      // Three more accredited workers of the company: new people, accredited as the first one is.
      const full = (await db()
        .selectFrom(table('accreditation'))
        .selectAll()
        .where('IdAcreditacion', '=', rows[0].IdAcreditacion)
        .executeTakeFirstOrThrow()) as Json;
      const dni = (
        (await as('requester', 'GET', '/api/rest/document-type?range=[0,999]')).body as Json[]
      ).find((d) => d.Alias === 'DNI' && d.IdPais === 'PE');
      const others: Json[] = [];
      for (const letter of 'ABC') {
        const person = await as('requester', 'POST', '/api/rest/person', {
          IdTipoDocumento: dni.IdTipoDocumento,
          Documento: `7290000${'ABC'.indexOf(letter)}`,
          Apellido: 'Huaman Quispe',
          Nombre: `Operario ${letter}`,
          IdCompania: full.IdCompania,
          Sexo: 'M',
          FechaNacimiento: '1990-05-04',
          IdPaisNacimiento: 'PE',
          IdPaisResidencia: 'PE',
          TelefonoMovil: '987654322',
          Condicion: 'T',
          Visita: 'N',
        });
        expect(person.status, JSON.stringify(person.body)).toBe(201);
        const { IdAcreditacion: _, ...copy } = full;
        await db()
          .insertInto(table('accreditation'))
          .values({ ...copy, IdPersona: person.body.IdPersona, Estado: 'A' })
          .execute();
        others.push(
          (await db()
            .selectFrom(table('accreditation'))
            .selectAll()
            .where('IdPersona', '=', person.body.IdPersona)
            .executeTakeFirstOrThrow()) as Json,
        );
      }
      const [demobilised, extended, moved] = others;

      // A renewal of an SCTR, filled, attached and sent.
      const sctr = await sctrOf(renewed.IdPersona);
      const made = await as('requester', 'POST', `${RENEWALS}/crear`, {
        IdEntidad: 'T',
        IdPersona: renewed.IdPersona,
        IdRequisito: sctr.IdRequisito,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      pending.A = made.body.result.IdSolicitud;
      await sendRenewal(w.app, tokens.requester, pending.A, addDays(today, 200));

      // A demobilisation.
      const demobilisation = await as('requester', 'POST', `${DEMOBILISATIONS}/crear`, {
        IdEntidad: 'T',
        Acreditaciones: [demobilised.IdAcreditacion],
        Observacion: 'Fin de la obra',
      });
      expect(demobilisation.status, JSON.stringify(demobilisation.body)).toBe(200);
      pending.D = demobilisation.body.result.Solicitudes[0].IdSolicitud;

      // An extension of an accreditation that ends in a month.
      await db()
        .updateTable(table('accreditation'))
        .set({ FechaFin: addDays(today, 30) })
        .where('IdAcreditacion', 'in', [extended.IdAcreditacion, moved.IdAcreditacion])
        .execute();
      const extension = await as('requester', 'POST', `${CONTRACTS}/ampliar`, {
        Acreditaciones: [extended.IdAcreditacion],
        FechaFin: addDays(today, 45),
      });
      expect(extension.status, JSON.stringify(extension.body)).toBe(200);
      pending.E = extension.body.result.Solicitudes[0].IdSolicitud;

      // A change to a second contract of the company (a copy of the worker's, numbered apart).
      const other = await copyContract(db(), w.registry, moved.IdContrato, '-R');
      const change = await as('requester', 'POST', `${CONTRACTS}/cambiar`, {
        Acreditaciones: [moved.IdAcreditacion],
        IdContrato: other,
        FechaFin: addDays(today, 40),
      });
      expect(change.status, JSON.stringify(change.body)).toBe(200);
      pending.C = change.body.result.Solicitudes[0].IdSolicitud;
      for (const id of Object.values(pending)) expect(await stateOf(id)).toBe('P');
    },
  });
  const { tokens } = w;
  const today = siteDate('PE');
  /** A pending request of each kind. */
  const pending = {} as Record<Kind, number>;

  const { as } = w;
  const { table } = w;
  const { db } = w;
  const stateOf = async (id: number) =>
    (
      (await db()
        .selectFrom(table('request'))
        .select(['EstadoAprobacion'])
        .where('IdSolicitud', '=', id)
        .executeTakeFirstOrThrow()) as Json
    ).EstadoAprobacion as string;
  /** The refusal's message key, on the answer or on its one row. */
  const refusalOf = (res: { body: Json }) =>
    res.body.errors?.['Solicitudes.0']?.messageKey ?? res.body.messageKey ?? res.body.code;

  let south: number;
  /** A worker's mobilisation the demo left pending in the division (other than `except`). */
  const pendingMobilisation = async (division: number, except = 0) =>
    (
      (await db()
        .selectFrom(table('request'))
        .select('IdSolicitud')
        .where('TipoSolicitud', '=', 'M')
        .where('EstadoAprobacion', '=', 'P')
        .where('IdEntidad', '=', 'T')
        .where('IdDivision', '=', division)
        .where('IdSolicitud', '!=', except)
        .orderBy('IdSolicitud')
        .executeTakeFirstOrThrow()) as Json
    ).IdSolicitud as number;

  it('each decision call decides only its own kind: any other is not found, and stays pending', async () => {
    for (const decision of CALLS)
      for (const [kind, id] of Object.entries(pending)) {
        if (kind === decision.kind) continue;
        const res = await as('authoriser', 'POST', decision.url, decision.body(id, 'APROBAR'));
        const what = `${decision.name} call on a ${kind}: ${JSON.stringify(res.body)}`;
        expect(res.status, what).toBeGreaterThanOrEqual(400);
        expect(res.status, what).toBeLessThan(500);
        expect(refusalOf(res), what).toMatch(/NOT_FOUND|notFound/);
        expect(await stateOf(id), what).toBe('P');
      }
  });

  it('an approver of one requirement type decides no whole request, single or mass; an approver of every type does', async () => {
    for (const decision of CALLS) {
      let refused = 0;
      for (const action of ACTIONS) {
        const id = pending[decision.kind];
        const res = await as('supervisor', 'POST', decision.url, decision.body(id, action));
        const what = `SUPERVISOR, ${decision.name} call, ${action}: ${JSON.stringify(res.body)}`;
        // An action this call does not take is refused as such.
        if (res.status === 400 && (res.body.errors?.Accion || res.body.code === 'BAD_REQUEST')) continue;
        expect([400, 403], what).toContain(res.status);
        expect(refusalOf(res), what).toBe('accreditation.refusals.notYourDecision');
        expect(await stateOf(id), what).toBe('P');
        refused++;
      }
      expect(refused, decision.name).toBeGreaterThanOrEqual(3);
    }
    // AUTORIZADOR decides each (observed, as every kind takes it with a reason).
    for (const decision of CALLS.filter((c) => !c.name.endsWith('mass'))) {
      const id = pending[decision.kind];
      const res = await as('authoriser', 'POST', decision.url, {
        ...decision.body(id, 'OBSERVAR'),
        Observacion: 'CORRIJA LA FECHA',
        MotivoRechazo: 'CORRIJA LA FECHA',
      });
      expect(res.status, `${decision.name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(await stateOf(id)).toBe('O');
    }
  });

  it('an approver of the second turn decides nothing while the first turn’s lines are open', async () => {
    const approver = table('approver');
    const rows = (await db()
      .selectFrom(approver)
      .selectAll()
      .where('IdUsuario', '=', 'SUPERVISOR')
      .execute()) as Json[];
    // SUPERVISOR becomes an approver of every requirement type, second after AUTORIZADOR.
    await db()
      .updateTable(approver)
      .set({ Orden: 2, IdTipoRequisito: null })
      .where('IdUsuario', '=', 'SUPERVISOR')
      .execute();
    try {
      const id = await pendingMobilisation(south, pending.M);
      for (const action of ['RECHAZAR', 'OBSERVAR', 'DEVOLVER']) {
        const res = await as('supervisor', 'POST', `${REQUESTS}/actualizarsolicitanteautorizador`, {
          IdSolicitud: id,
          Accion: action,
          Detalle: [],
          MotivoRechazo: 'NO CORRESPONDE',
          Observacion: 'NO CORRESPONDE',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.messageKey).toBe('accreditation.refusals.notYourTurn');
        expect(await stateOf(id)).toBe('P');
      }
    } finally {
      for (const row of rows)
        await db()
          .updateTable(approver)
          .set({ Orden: row.Orden, IdTipoRequisito: row.IdTipoRequisito })
          .where('IdAutorizador', '=', row.IdAutorizador)
          .execute();
    }
  });

  it('the requester’s calls of one kind change no request of another kind', async () => {
    // Every request is observed now (the test before), so each kind's own calls could change it.
    for (const id of Object.values(pending)) expect(await stateOf(id)).toBe('O');
    const header = async (id: number) =>
      (await db()
        .selectFrom(table('request'))
        .select(['FechaInicio', 'FechaFin', 'IdContrato', 'EstadoAprobacion'])
        .where('IdSolicitud', '=', id)
        .executeTakeFirstOrThrow()) as Json;
    const attempts: Array<{
      name: string;
      kinds: Kind[];
      run: (id: number) => Promise<{ status: number; body: Json }>;
    }> = [
      {
        name: 'actualizarsolicitante',
        kinds: ['D', 'E', 'C'],
        run: (id) =>
          as('requester', 'POST', `${REQUESTS}/actualizarsolicitante`, {
            IdSolicitud: id,
            FechaFin: addDays(today, 20),
          }),
      },
      {
        name: 'cerrarsolicitud',
        kinds: ['D', 'E', 'C'],
        run: (id) => as('requester', 'POST', `${REQUESTS}/cerrarsolicitud`, { IdSolicitud: id }),
      },
      {
        name: 'UploadSolicitanteArchivo',
        kinds: ['D', 'E', 'C'],
        run: (id) =>
          upload(
            w.app,
            tokens.requester,
            `${REQUESTS}/UploadSolicitanteArchivo`,
            { IdSolicitud: id, IdDatoEvaluar: 1 },
            { name: 'a.pdf', bytes: pdf('OTRO'), type: 'application/pdf' },
          ),
      },
      {
        name: 'crearsolicitantefoto',
        kinds: ['A', 'D', 'E', 'C'],
        run: (id) =>
          upload(
            w.app,
            tokens.requester,
            `${REQUESTS}/crearsolicitantefoto`,
            { IdSolicitud: id },
            {
              name: 'foto.png',
              bytes: png(150, 160),
              type: 'image/png',
            },
          ),
      },
      {
        name: 'mobilisation eliminar',
        kinds: ['A', 'D', 'E', 'C'],
        run: (id) => as('requester', 'DELETE' as never, `${REQUESTS}/eliminar?IdSolicitud=${id}`),
      },
      {
        name: 'renewal eliminar',
        kinds: ['M', 'D', 'E', 'C'],
        run: (id) => as('requester', 'DELETE' as never, `${RENEWALS}/eliminar?IdSolicitud=${id}`),
      },
    ];
    for (const attempt of attempts)
      for (const kind of attempt.kinds) {
        const id = pending[kind];
        const before = await header(id);
        const res = await attempt.run(id);
        const what = `${attempt.name} on a ${kind}: ${JSON.stringify(res.body)}`;
        expect(res.status, what).toBe(404);
        expect(await header(id), what).toEqual(before);
      }
  });
});
