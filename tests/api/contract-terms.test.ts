import { describe, expect, it } from 'vitest';
import { requestNumber } from '../../src/shared/accreditation.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * A contract as the spec has it (section 3 Contract): besides its endowment, its operators 1 and 2,
 * cost centres, subcontractors and associated services, kept by the administrator and read by its
 * contractor; a worker's request names one of the contract's organisational units and cost centres
 * (one of its units is required when the endowment applies by unit); the operators get a copy of
 * every outcome of a request on their contract.
 */
describe.each(DIALECTS)('a contract’s parts on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      const contracts = await cat.list('contract');
      contract = contracts.find((c: Json) => c.NumeroContrato === 'CT-2026-001').IdContrato;
      otherContract = contracts.find((c: Json) => c.NumeroContrato === 'CT-2026-002').IdContrato;
      for (const u of await cat.list('organisational-unit')) unit[u.Codigo] = u.IdUnidadOrganizativa;
      for (const c of await cat.list('cost-centre')) centre[c.Codigo] = c.IdCentroCosto;
      for (const c of await cat.list('company')) company[c.Alias] = c.IdCompania;
    },
  });
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const today = siteDate('PE');
  let contract: number;
  let otherContract: number;
  let serial = 0;
  const unit: Record<string, number> = {};
  const centre: Record<string, number> = {};
  const company: Record<string, number> = {};

  const { as, tokens, db, table } = w;
  const count = (name: string) => w.count(name);
  const worker = (extra: object = {}) => ({
    IdEntidad: 'T',
    IdContrato: contract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 60),
    IdTipoDocumento: cat.dni,
    Documento: String(72_800_000 + serial++),
    Apellido: 'Condori Apaza',
    Nombre: 'Rosa',
    Sexo: 'F',
    FechaNacimiento: '1990-02-11',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987111222',
    ...extra,
  });
  const file = (extra: object = {}) => as('requester', 'POST', `${BASE}/crearsolicitante`, worker(extra));

  it('keeps the demo contract’s operators, units, cost centres, subcontractors and services for its request’s context', async () => {
    const info = await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${contract}`);
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    const parts = info.body.result;
    expect(parts.Operadores.map((o: Json) => o.IdUsuario)).toEqual(['AUTORIZADOR', 'SUPERVISOR']);
    expect(parts.Operadores[0].Nombre).not.toBe('AUTORIZADOR');
    expect(parts.UnidadesOrganizativas.map((u: Json) => [u.Codigo, u.Dotacion])).toEqual([
      ['GO-MANT', 80],
      ['GO-MINA', 40],
    ]);
    expect(parts.CentrosCosto.map((c: Json) => c.Codigo)).toEqual(['110200', '130100']);
    expect(parts.Subcontratistas).toEqual([
      expect.objectContaining({ IdCompania: company.TRANSALTI, Dotacion: 10, FechaFin: '2027-01-31' }),
    ]);
    expect(parts.Servicios.map((s: Json) => s.TipoServicio)).toEqual(['A', 'H', 'T']);
    // Another company's contract is not read, and the parts' screens are the administrator's.
    expect(
      (await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${otherContract}`)).status,
    ).toBe(404);
    expect((await as('requester', 'GET', '/api/rest/contract-service')).status).toBe(403);
    const listed = await as(
      'admin',
      'GET',
      `/api/rest/contract-service?filter=${encodeURIComponent(JSON.stringify({ IdContrato: contract }))}`,
    );
    expect(listed.body.map((s: Json) => s.TipoServicio).sort()).toEqual(['A', 'H', 'T']);
  });

  it('refuses bad parts with clear messages and writes nothing', async () => {
    const subs = await count('contract-subcontractor');
    const own = await as('admin', 'POST', '/api/rest/contract-subcontractor', {
      IdContrato: contract,
      IdCompania: company.SERMIPAC,
      Actividad: 'Mantenimiento',
      FechaInicio: '2026-03-01',
      FechaFin: '2026-12-31',
      Activo: 'S',
    });
    expect(own.status).toBe(400);
    expect(own.body.errors.IdCompania.messageKey).toBe('rules.subcontractorIsContractor');
    const outside = await as('admin', 'POST', '/api/rest/contract-subcontractor', {
      IdContrato: contract,
      IdCompania: company.PERVOSUR,
      Actividad: 'Voladura secundaria',
      FechaInicio: '2026-03-01',
      FechaFin: '2028-06-30',
      Activo: 'S',
    });
    expect(outside.status).toBe(400);
    expect(outside.body.errors.FechaFin.message).toBe(
      "Must fall within the contract's period (2026-01-01 to 2027-12-31).",
    );
    const twice = await as('admin', 'POST', '/api/rest/contract-subcontractor', {
      IdContrato: contract,
      IdCompania: company.TRANSALTI,
      Actividad: 'Otra vez',
      FechaInicio: '2026-03-01',
      FechaFin: '2026-12-31',
      Activo: 'S',
    });
    expect(twice.status).toBe(409);
    expect(await count('contract-subcontractor')).toBe(subs);
    const added = await as('admin', 'POST', '/api/rest/contract-subcontractor', {
      IdContrato: contract,
      IdCompania: company.PERVOSUR,
      Actividad: 'Voladura secundaria',
      FechaInicio: '2026-03-01',
      FechaFin: '2027-06-30',
      Dotacion: 6,
      Activo: 'S',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const centres = await count('contract-cost-centre');
    const again = await as('admin', 'POST', '/api/rest/contract-cost-centre', {
      IdContrato: contract,
      IdCentroCosto: centre['130100'],
      Activo: 'S',
    });
    expect(again.status).toBe(409);
    expect(await count('contract-cost-centre')).toBe(centres);
    const service = await as('admin', 'POST', '/api/rest/contract-service', {
      IdContrato: contract,
      TipoServicio: 'X',
      Descripcion: 'SPA',
      Activo: 'S',
    });
    expect(service.status).toBe(400);
    const head = (await as('admin', 'GET', `/api/rest/contract/${contract}`)).body;
    const same = await as('admin', 'PUT', `/api/rest/contract/${contract}`, {
      ...head,
      IdOperador2: head.IdOperador1,
    });
    expect(same.status).toBe(400);
    expect(same.body.errors.IdOperador2.messageKey).toBe('rules.contractOperatorsSame');
    const unknown = await as('admin', 'PUT', `/api/rest/contract/${contract}`, {
      ...head,
      IdOperador2: 'NADIE',
    });
    expect(unknown.status).toBe(400);
    expect((await as('admin', 'GET', `/api/rest/contract/${contract}`)).body.IdOperador2).toBe('SUPERVISOR');
  });

  it('files a worker only in one of the contract’s units and cost centres', async () => {
    const before = await count('request');
    const elsewhere = await file({ IdUnidadOrganizativa: unit.GSSO });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors.IdUnidadOrganizativa.message).toBe(
      "The organisational unit is not one of the contract's: SUPERINTENDENCIA DE MANTENIMIENTO, SUPERINTENDENCIA DE MINA.",
    );
    const charged = await file({ IdUnidadOrganizativa: unit['GO-MANT'], IdCentroCosto: centre['150100'] });
    expect(charged.status).toBe(400);
    expect(charged.body.errors.IdCentroCosto.messageKey).toBe(
      'accreditation.refusals.costCentreNotInContract',
    );
    expect(charged.body.errors.IdCentroCosto.message).toBe(
      "The cost centre is not one of the contract's: 110200, 130100.",
    );
    expect(await count('request')).toBe(before);
    const filed = await file({ IdUnidadOrganizativa: unit['GO-MANT'], IdCentroCosto: centre['130100'] });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    // Saved again with a cost centre the contract does not list: refused, the stored one kept.
    const id = filed.body.result.IdSolicitud;
    const moved = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      IdCentroCosto: centre['150100'],
    });
    expect(moved.status).toBe(400);
    const stored = (await db()
      .selectFrom(table('request'))
      .select('IdCentroCosto')
      .where('IdSolicitud', '=', id)
      .executeTakeFirstOrThrow()) as Json;
    expect(stored.IdCentroCosto).toBe(centre['130100']);
    // With no unit and no cost centre, a contract whose endowment applies by contract takes it.
    expect((await file()).status).toBe(200);
    // By unit, the worker must name one of the contract's units, else nobody would count it.
    await db()
      .updateTable(table('contract'))
      .set({ TipoDotacion: 'U' })
      .where('IdContrato', '=', contract)
      .execute();
    const unnamed = await file();
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors.IdUnidadOrganizativa.messageKey).toBe('accreditation.refusals.unitRequired');
    expect((await file({ IdUnidadOrganizativa: unit['GO-MINA'] })).status).toBe(200);
    await db()
      .updateTable(table('contract'))
      .set({ TipoDotacion: 'C' })
      .where('IdContrato', '=', contract)
      .execute();
  });

  it('copies the outcome of a request on the contract to its operators', async () => {
    const pending = (await db()
      .selectFrom(table('request'))
      .select('IdSolicitud')
      .where('IdContrato', '=', contract)
      .where('TipoSolicitud', '=', 'M')
      .where('IdEntidad', '=', 'T')
      .where('EstadoAprobacion', '=', 'P')
      .orderBy('IdSolicitud')
      .executeTakeFirstOrThrow()) as Json;
    const outbox = async () =>
      (await db()
        .selectFrom('security_outbox')
        .select(['IdUsuario', 'Asunto'])
        .where('Asunto', 'like', `%${requestNumber(pending.IdSolicitud)}%`)
        .execute()) as Json[];
    const before = await outbox();
    const rejected = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: pending.IdSolicitud,
      Accion: 'RECHAZAR',
      MotivoRechazo: 'Documentación adulterada',
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    const told = (await outbox())
      .slice(before.length)
      .filter((m: Json) => /rechazada/.test(m.Asunto))
      .map((m: Json) => m.IdUsuario)
      .sort();
    expect(told).toEqual(['AUTORIZADOR', 'SOLICITANTE', 'SUPERVISOR']);
  });
});
