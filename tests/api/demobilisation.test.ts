import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { pdf, upload } from '../support/accreditation.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditaciondesmovilizacion';

describe.each(DIALECTS)('demobilisation on %s', (dialect) => {
  const w = world(dialect, {
    users: { ...CONTRACTOR_CAST, authoriserNorth: { user: 'AUTORIZADOR', division: NORTH } },
    division: SOUTH,
    ready: async () => {
      await accreditMore(8);
    },
  });
  const { tokens } = w;
  const today = siteDate('PE');

  const { as } = w;
  const rest = async (who: string, resource: string, filter: object = {}) =>
    (
      await call(w.app, {
        url: `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        token: tokens[who],
      })
    ).body as Json[];
  const make = async (resource: string, record: object) => {
    const res = await call(w.app, {
      method: 'POST',
      url: `/api/rest/${resource}`,
      token: tokens.admin,
      payload: record,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Json;
  };
  const candidates = async (kind: 'T' | 'V') => {
    const res = await as('requester', 'POST', `${BASE}/filtrarNuevoSolicitante`, { IdEntidad: kind });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as Json[];
  };
  /** The ids of a holder's active rows of a resource. */
  const active = async (resource: string, key: string, filter: object) =>
    (await rest('admin', resource, filter))
      .filter((x: Json) => x.Activo === 'S')
      .map((x: Json) => x[key] as number);
  /**
   * Makes sure a worker has an access assignment, a credential and a dining category (the demo may
   * already give some); answers every active one as `resource:id`, what its demobilisation revokes.
   */
  const equip = async (person: number) => {
    if (!(await active('person-access', 'IdAccesoPersona', { IdPersona: person })).length) {
      const profile = (await rest('admin', 'access-profile', { IdEntidad: 'T' }))[0];
      await make('person-access', {
        IdPersona: person,
        IdPerfilAcceso: profile.IdPerfilAcceso,
        FechaInicio: addDays(today, -30),
        FechaFin: addDays(today, 60),
        Temporal: 'N',
        Activo: 'S',
      });
    }
    if (!(await active('credential', 'IdCredencial', { IdPersona: person })).length) {
      const type = (await rest('admin', 'credential-type'))[0];
      const issue = (await rest('admin', 'identification-reason', { Tipo: 'E' }))[0];
      await make('credential', {
        TipoTitular: 'P',
        IdPersona: person,
        IdTipoCredencial: type.IdTipoCredencial,
        Numero: `FC-${person}-${Math.floor(Math.random() * 1e6)}`,
        FechaInicio: addDays(today, -30),
        FechaFin: addDays(today, 300),
        Impreso: 'S',
        IdMotivoEmision: issue.IdMotivo,
        Activo: 'S',
      });
    }
    if (!(await active('person-cost-category', 'IdCategoriaCostoPersona', { IdPersona: person })).length) {
      const category = (await rest('admin', 'cost-category'))[0];
      await make('person-cost-category', {
        IdPersona: person,
        IdCategoriaCosto: category.IdCategoriaCosto,
        FechaInicio: addDays(today, -30),
        Activo: 'S',
      });
    }
    const out: string[] = [];
    for (const [resource, key] of [
      ['person-access', 'IdAccesoPersona'],
      ['credential', 'IdCredencial'],
      ['person-cost-category', 'IdCategoriaCostoPersona'],
    ])
      for (const id of await active(resource, key, { IdPersona: person })) out.push(`${resource}:${id}`);
    // The demo may lodge the worker in a camp: a stay checked in or to come ends with the accreditation.
    const stays = (await w.t.db.database.db
      .selectFrom('hotel_reservation')
      .select('IdReserva')
      .where('IdPersona', '=', person)
      .where('Estado', 'in', ['R', 'I'])
      .execute()) as Json[];
    for (const stay of stays) out.push(`reservation:${stay.IdReserva}`);
    // The demo may seat the worker on a bus: a seat on a trip after today is released with the accreditation.
    const seats = (await w.t.db.database.db
      .selectFrom('transport_trip_booking as b')
      .innerJoin('transport_trip as v', 'v.IdViaje', 'b.IdViaje')
      .select('b.IdReserva')
      .where('b.IdPersona', '=', person)
      .where('b.Estado', '=', 'R')
      .where('b.Fecha', '>', today)
      .where('v.Estado', 'in', ['P', 'E'])
      .execute()) as Json[];
    for (const seat of seats) out.push(`trip-booking:${seat.IdReserva}`);
    return out;
  };

  /**
   * More accredited workers of the requester's company than the demo holds: persons of the company
   * with no accreditation, accredited on the contract and request of an existing one.
   */
  const accreditMore = async (count: number) => {
    const db = w.t.db.database.db;
    const table = w.registry.require('accreditation').table;
    const [template] = (await candidates('T')).filter((r) => r.Estado === 'A');
    const full = (await db
      .selectFrom(table)
      .selectAll()
      .where('IdAcreditacion', '=', template.IdAcreditacion)
      .executeTakeFirstOrThrow()) as Json;
    const taken = new Set(
      ((await db.selectFrom(table).select('IdPersona').execute()) as Json[]).map((r) => r.IdPersona),
    );
    const dni = ((await rest('admin', 'document-type')) as Json[]).find(
      (d) => d.Alias === 'DNI' && d.IdPais === 'PE',
    );
    const people: Json[] = [];
    for (let i = 0; i < count; i++) {
      const res = await call(w.app, {
        method: 'POST',
        url: '/api/rest/person',
        token: tokens.requester,
        payload: {
          IdTipoDocumento: dni.IdTipoDocumento,
          Documento: String(71_800_000 + i),
          Apellido: 'Mamani Condori',
          Nombre: `Obrero ${'ABCDEFGHIJ'[i]}`,
          IdCompania: full.IdCompania,
          Sexo: 'M',
          FechaNacimiento: '1988-03-02',
          IdPaisNacimiento: 'PE',
          IdPaisResidencia: 'PE',
          TelefonoMovil: '987654321',
          Condicion: 'T',
          Visita: 'N',
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(taken.has(res.body.IdPersona)).toBe(false);
      people.push(res.body);
    }
    for (const person of people) {
      const { IdAcreditacion: _, ...copy } = full;
      await db
        .insertInto(table)
        .values({ ...copy, IdPersona: person.IdPersona, Estado: 'A' })
        .execute();
    }
  };

  it('demobilises two workers at once; approving them ends each accreditation and revokes what hung on it, in one transaction', async () => {
    const rows = (await candidates('T')).filter((r) => r.Estado === 'A');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    // Two workers with a single active accreditation each, so their credential and dining go too.
    const all = await rest('admin', 'accreditation', { IdEntidad: 'T' });
    const single = rows.filter(
      (r) => all.filter((a: Json) => a.IdPersona === r.IdPersona && a.Estado !== 'T').length === 1,
    );
    const [a, b] = single;
    expect(b).toBeDefined();
    const gear = { [a.IdPersona]: await equip(a.IdPersona), [b.IdPersona]: await equip(b.IdPersona) };

    const before = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result;
    const pendingBefore = before[1].find((r: Json) => r.ESTADO === 'P').TOTAL;

    const made = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      Acreditaciones: [a.IdAcreditacion, b.IdAcreditacion],
      Observacion: 'Fin de la obra civil',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const requests = made.body.result.Solicitudes as Json[];
    expect(requests.map((r) => r.EstadoAprobacion)).toEqual(['P', 'P']);
    expect(w.t.mail.some((m) => m.userId === 'AUTORIZADOR' && /por evaluar/.test(m.subject))).toBe(true);

    // The counters moved: the requester's and the authoriser's demobilisation dashboards.
    const after = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result;
    expect(after[1].find((r: Json) => r.ESTADO === 'P').TOTAL).toBe(pendingBefore + 2);
    expect(after[3]).toEqual([]);
    const boss = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=1`)).body.result;
    expect(boss[1].find((r: Json) => r.ESTADO === 'P').TOTAL).toBeGreaterThanOrEqual(2);
    // They are no longer candidates, and a second one for the same worker is refused.
    expect((await candidates('T')).map((r) => r.IdAcreditacion)).not.toContain(a.IdAcreditacion);
    const twice = await as('requester', 'POST', `${BASE}/crear`, {
      Acreditaciones: [a.IdAcreditacion],
      Observacion: 'Otra vez',
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors['Acreditaciones.0'].messageKey).toBe('accreditation.refusals.openRequestExists');
    // Mobilisation lists do not show them.
    const mobilisations = (await as('requester', 'GET', '/api/acreditacionsolicitud/filtrar?take=1000')).body
      .result.data as Json[];
    expect(mobilisations.map((r) => r.IdSolicitud)).not.toContain(requests[0].IdSolicitud);
    const listed = (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 100 })).body.result;
    expect(listed.data.map((r: Json) => r.IdSolicitud)).toEqual(
      expect.arrayContaining(requests.map((r) => r.IdSolicitud)),
    );

    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Solicitudes: requests.map((r) => r.IdSolicitud),
      Accion: 'APROBAR',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    for (const [index, row] of [a, b].entries()) {
      const done = approved.body.result.Solicitudes[index];
      expect(done.EstadoAprobacion).toBe('A');
      const g = gear[row.IdPersona];
      expect(g.filter((x) => x.startsWith('person-access:')).length).toBeGreaterThan(0);
      expect(g.filter((x) => x.startsWith('credential:')).length).toBeGreaterThan(0);
      expect(g.filter((x) => x.startsWith('person-cost-category:')).length).toBeGreaterThan(0);
      expect(done.revocados.map((r: Json) => `${r.Recurso}:${r.IdRegistro}`).sort()).toEqual(
        [`accreditation:${row.IdAcreditacion}`, ...g].sort(),
      );
      const accreditation = (await rest('admin', 'accreditation', { IdPersona: row.IdPersona })).find(
        (x: Json) => x.IdAcreditacion === row.IdAcreditacion,
      );
      expect(accreditation.Estado).toBe('T');
      expect(accreditation.FechaFin <= row.FechaFin).toBe(true);
      // Every item is inactive now; nothing of the worker's stays active.
      for (const [resource, key] of [
        ['person-access', 'IdAccesoPersona'],
        ['credential', 'IdCredencial'],
        ['person-cost-category', 'IdCategoriaCostoPersona'],
      ]) {
        const rows = await rest('admin', resource, { IdPersona: row.IdPersona });
        for (const item of g.filter((x) => x.startsWith(`${resource}:`)))
          expect(rows.find((x: Json) => `${resource}:${x[key]}` === item).Activo).toBe('N');
        expect(await active(resource, key, { IdPersona: row.IdPersona })).toEqual([]);
      }
      const credentials = await rest('admin', 'credential', { IdPersona: row.IdPersona });
      for (const c of credentials.filter((x: Json) => g.includes(`credential:${x.IdCredencial}`)))
        expect(c.IdMotivoInactivacion).toBeTruthy();
      // Each revoked item by its name: the contract, the access profile, the credential's number,
      // the cost category.
      const named = Object.fromEntries(
        done.revocados.map((r: Json) => [`${r.Recurso}:${r.IdRegistro}`, r.Descripcion]),
      );
      expect(named[`accreditation:${row.IdAcreditacion}`]).toBe(row.NumeroContrato);
      const names = {
        'person-access': async (x: Json) =>
          (await rest('admin', 'access-profile')).find((p: Json) => p.IdPerfilAcceso === x.IdPerfilAcceso)
            .Descripcion,
        credential: async (x: Json) => x.Numero,
        'person-cost-category': async (x: Json) =>
          (await rest('admin', 'cost-category')).find((c: Json) => c.IdCategoriaCosto === x.IdCategoriaCosto)
            .Descripcion,
      } as Record<string, (x: Json) => Promise<string>>;
      for (const [resource, key] of [
        ['person-access', 'IdAccesoPersona'],
        ['credential', 'IdCredencial'],
        ['person-cost-category', 'IdCategoriaCostoPersona'],
      ])
        for (const x of await rest('admin', resource, { IdPersona: row.IdPersona }))
          if (g.includes(`${resource}:${x[key]}`))
            expect(named[`${resource}:${x[key]}`]).toBe(await names[resource](x));
    }
    // The requester reads what was revoked, with the history.
    const read = await as(
      'requester',
      'GET',
      `${BASE}/obtenerbyautorizador?IdSolicitud=${requests[0].IdSolicitud}`,
    );
    expect(read.status).toBe(200);
    expect(read.body.result.revocados).toHaveLength(1 + gear[a.IdPersona].length);
    expect(read.body.result.acreditacion.Estado).toBe('T');
    expect(read.body.result.historial.map((h: Json) => h.Evento)).toEqual(['CREATE', 'SEND', 'APPROVE']);
    expect(w.t.mail.some((m) => m.userId === 'SOLICITANTE' && /aprobada/.test(m.text))).toBe(true);
    // Answered: neither evaluated again nor deleted.
    const again = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: requests[0].IdSolicitud,
      Accion: 'RECHAZAR',
      Observacion: 'X',
    });
    expect(again.status).toBe(409);
    expect(again.body.messageKey).toBe('accreditation.refusals.notPending');
    const gone = await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${requests[0].IdSolicitud}`);
    expect(gone.status).toBe(409);
    expect(gone.body.messageKey).toBe('accreditation.refusals.sentNotDeletable');
    const dash = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=1`)).body.result;
    expect(dash[1].find((r: Json) => r.ESTADO === 'A').TOTAL).toBeGreaterThanOrEqual(2);
  });

  it('reads no multipart body before the caller may make the call, and no more files than the call takes', async () => {
    const calls = [`${BASE}/crear`, '/api/acreditacionrequisitosolicitud/crear'];
    // A body cut short after its first part: read, it would be refused as such; the authoriser is
    // refused for who it is, before a byte of it is read.
    const cut = {
      payload:
        '------acrcut\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4',
      headers: { 'content-type': 'multipart/form-data; boundary=----acrcut' },
    };
    for (const url of calls) {
      const res = await call(w.app, { method: 'POST', url, token: tokens.authoriser, ...cut });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(403);
      // The requester may make the call: its body is read, and a body cut short is a 400.
      const bad = await call(w.app, { method: 'POST', url, token: tokens.requester, ...cut });
      expect(bad.status, `${url}: ${JSON.stringify(bad.body)}`).toBe(400);
    }
    // A requester's demobilisation carries one letter: a second file is refused, nothing made.
    const [row] = (await candidates('T')).filter((r) => r.Estado === 'A');
    const before = (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1000 })).body.result
      .totalCount;
    const two = await upload(
      w.app,
      tokens.requester,
      `${BASE}/crear`,
      { IdEntidad: 'T', IdAcreditacion: row.IdAcreditacion, Observacion: 'Fin de contrato' },
      [
        { name: 'carta.pdf', bytes: pdf('UNA'), type: 'application/pdf', field: 'file' },
        { name: 'otra.pdf', bytes: pdf('OTRA'), type: 'application/pdf', field: 'file2' },
      ],
    );
    expect(two.status, JSON.stringify(two.body)).toBe(413);
    expect(
      (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1000 })).body.result.totalCount,
    ).toBe(before);
  });

  it('takes multipart with a letter every request carries; a file that is not a PDF makes nothing', async () => {
    const rows = (await candidates('T')).filter((r) => r.Estado === 'A').slice(-2);
    expect(rows).toHaveLength(2);
    const fields = {
      IdEntidad: 'T',
      Acreditaciones: JSON.stringify(rows.map((r) => r.IdAcreditacion)),
      Observacion: 'Fin de la parada de planta',
    };
    const before = (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1000 })).body.result
      .totalCount;
    const exe = await upload(w.app, tokens.requester, `${BASE}/crear`, fields, {
      name: 'carta.pdf',
      bytes: Buffer.from('MZ\x90\x00 not a pdf'),
      type: 'application/pdf',
    });
    expect(exe.status).toBe(400);
    expect(exe.body.messageKey).toBe('accreditation.files.notPdf');
    expect(
      (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1000 })).body.result.totalCount,
    ).toBe(before);

    const letter = pdf('CARTA DE CESE');
    const made = await upload(w.app, tokens.requester, `${BASE}/crear`, fields, {
      name: 'carta-cese.pdf',
      bytes: letter,
      type: 'application/pdf',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const requests = made.body.result.Solicitudes as Json[];
    expect(requests).toHaveLength(2);
    for (const { IdSolicitud } of requests)
      for (const who of ['requester', 'authoriser']) {
        const file = await as(who, 'GET', `${BASE}/downloadFileBase64?IdSolicitud=${IdSolicitud}`);
        expect(file.status, JSON.stringify(file.body)).toBe(200);
        expect(file.body.result).toMatchObject({ name: 'carta-cese.pdf', type: 'application/pdf' });
        expect(Buffer.from(file.body.result.file, 'base64').equals(letter)).toBe(true);
      }
    const other = await as(
      'requesterNorth',
      'GET',
      `${BASE}/downloadFileBase64?IdSolicitud=${requests[0].IdSolicitud}`,
    );
    expect(other.status).toBe(404);
  });

  it('demobilises a vehicle: its access assignment and its windscreen card are revoked', async () => {
    const [row] = (await candidates('V')).filter((r) => r.Estado === 'A');
    expect(row).toBeDefined();
    // The vehicle's only accreditation of the client: its credential hangs on it.
    const accreditations = (await rest('admin', 'accreditation', { IdVehiculo: row.IdVehiculo })).filter(
      (a: Json) => a.Estado === 'A' || a.Estado === 'S',
    );
    expect(accreditations.map((a: Json) => a.IdAcreditacion)).toEqual([row.IdAcreditacion]);
    if (!(await active('credential', 'IdCredencial', { IdVehiculo: row.IdVehiculo })).length) {
      const type = (await rest('admin', 'credential-type'))[0];
      const issue = (await rest('admin', 'identification-reason', { Tipo: 'E' }))[0];
      await make('credential', {
        TipoTitular: 'V',
        IdVehiculo: row.IdVehiculo,
        IdTipoCredencial: type.IdTipoCredencial,
        Numero: `TV-${row.IdVehiculo}-${Math.floor(Math.random() * 1e6)}`,
        FechaInicio: addDays(today, -30),
        FechaFin: addDays(today, 60),
        Impreso: 'N',
        IdMotivoEmision: issue.IdMotivo,
        Activo: 'S',
      });
    }
    const cards = await active('credential', 'IdCredencial', { IdVehiculo: row.IdVehiculo });
    expect(cards.length).toBe(1);
    const profile = (await rest('admin', 'access-profile', { IdEntidad: 'V' }))[0];
    const access = await make('vehicle-access', {
      IdVehiculo: row.IdVehiculo,
      IdPerfilAcceso: profile.IdPerfilAcceso,
      FechaInicio: addDays(today, -10),
      FechaFin: addDays(today, 30),
      Temporal: 'N',
      Activo: 'S',
    });
    const held = await active('vehicle-access', 'IdAccesoVehiculo', { IdVehiculo: row.IdVehiculo });
    expect(held).toContain(access.IdAccesoVehiculo);
    const made = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'V',
      IdAcreditacion: row.IdAcreditacion,
      Observacion: 'Unidad retirada por mantenimiento mayor',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.Solicitudes[0].IdSolicitud;
    // Not through the calls of another kind: the mobilisation's and the renewal's evaluations do
    // not know it, and nothing changes.
    for (const other of [
      '/api/acreditacionsolicitud/actualizarsolicitanteautorizador',
      '/api/acreditacionrequisitosolicitud/actualizarautorizador',
    ]) {
      const wrong = await as('authoriser', 'POST', other, {
        IdSolicitud: id,
        Accion: 'APROBAR',
        Detalle: [],
      });
      expect(wrong.status, `${other}: ${JSON.stringify(wrong.body)}`).toBe(404);
    }
    const kept = (await rest('admin', 'accreditation', { IdVehiculo: row.IdVehiculo })).find(
      (a: Json) => a.IdAcreditacion === row.IdAcreditacion,
    );
    expect(kept.Estado).toBe('A');
    // A listener that refuses undoes the whole decision with its own message: nothing half done.
    const stop = w.app.events.add('test', {
      ended: async () => {
        throw new ApiError('CONFLICT', { messageKey: 'dining.reasons.ROOM_FULL' });
      },
    });
    const refused = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    stop();
    expect([refused.status, refused.body.messageKey]).toEqual([409, 'dining.reasons.ROOM_FULL']);
    expect(
      (await rest('admin', 'accreditation', { IdVehiculo: row.IdVehiculo })).find(
        (a: Json) => a.IdAcreditacion === row.IdAcreditacion,
      ).Estado,
    ).toBe('A');
    expect(await active('credential', 'IdCredencial', { IdVehiculo: row.IdVehiculo })).toEqual(cards);
    expect(await active('vehicle-access', 'IdAccesoVehiculo', { IdVehiculo: row.IdVehiculo })).toEqual(held);
    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.revocados.map((r: Json) => `${r.Recurso}:${r.IdRegistro}`).sort()).toEqual(
      [
        `accreditation:${row.IdAcreditacion}`,
        ...held.map((h: number) => `vehicle-access:${h}`),
        `credential:${cards[0]}`,
      ].sort(),
    );
    expect(await active('credential', 'IdCredencial', { IdVehiculo: row.IdVehiculo })).toEqual([]);
    const stored = (await rest('admin', 'vehicle-access', { IdVehiculo: row.IdVehiculo })).find(
      (x: Json) => x.IdAccesoVehiculo === access.IdAccesoVehiculo,
    );
    expect(stored.Activo).toBe('N');
    expect(await active('vehicle-access', 'IdAccesoVehiculo', { IdVehiculo: row.IdVehiculo })).toEqual([]);
    // The accreditation's events: ended once, by the approval that went through, with what it released.
    const ended = (await w.t.db.database.db
      .selectFrom(w.registry.require('accreditation-event').table)
      .selectAll()
      .where('IdAcreditacion', '=', row.IdAcreditacion)
      .where('Tipo', '=', 'ended')
      .execute()) as Json[];
    expect(ended).toHaveLength(1);
    expect(JSON.parse(ended[0].Datos)).toMatchObject({ IdSolicitud: id, liberados: held.length + 1 });
  });

  it('refuses a missing observation, an empty selection, a date past the accreditation and another company’s row, naming the rows', async () => {
    const [row, other] = (await candidates('T')).filter((r) => r.Estado === 'A');
    const noNote = await as('requester', 'POST', `${BASE}/crear`, { Acreditaciones: [row.IdAcreditacion] });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors.Observacion.messageKey).toBe('demobilisation.refusals.observationRequired');
    const empty = await as('requester', 'POST', `${BASE}/crear`, { Acreditaciones: [], Observacion: 'X' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.Acreditaciones.messageKey).toBe('demobilisation.refusals.selectionEmpty');
    const late = await as('requester', 'POST', `${BASE}/crear`, {
      Acreditaciones: [row.IdAcreditacion],
      Observacion: 'X',
      FechaDesmovilizacion: addDays(row.FechaFin, 1),
    });
    expect(late.status).toBe(400);
    expect(late.body.errors['Acreditaciones.0'].messageKey).toBe('accreditation.refusals.outsideContract');
    const past = await as('requester', 'POST', `${BASE}/crear`, {
      Acreditaciones: [row.IdAcreditacion],
      Observacion: 'X',
      FechaDesmovilizacion: addDays(today, -1),
    });
    expect(past.status).toBe(400);
    // Another division's (or company's) accreditation is not the requester's: all or nothing.
    const north = await call(w.app, {
      method: 'POST',
      url: `${BASE}/filtrarNuevoSolicitante`,
      token: tokens.requesterNorth,
      payload: { IdEntidad: 'T' },
    });
    const foreign = (north.body.result as Json[])[0];
    expect(foreign).toBeDefined();
    const mixed = await as('requester', 'POST', `${BASE}/crear`, {
      Acreditaciones: [row.IdAcreditacion, foreign.IdAcreditacion, other.IdAcreditacion],
      Observacion: 'Cierre',
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.messageKey).toBe('demobilisation.refusals.rowsStopped');
    expect(Object.keys(mixed.body.errors)).toEqual(['Acreditaciones.1']);
    expect(mixed.body.errors['Acreditaciones.1'].messageKey).toBe('demobilisation.refusals.notAccredited');
    // Nothing was written: both good rows are still candidates.
    const still = (await candidates('T')).map((r) => r.IdAcreditacion);
    expect(still).toEqual(expect.arrayContaining([row.IdAcreditacion, other.IdAcreditacion]));
    // A visit is not demobilised (workers and vehicles only).
    expect(
      (await as('requester', 'POST', `${BASE}/crear`, { IdEntidad: 'P', Observacion: 'X' })).status,
    ).toBe(400);
  });

  it('observes and rejects with a reason only; a mass decision is all or nothing and names the rows that stopped it', async () => {
    const [one, two] = (await candidates('T')).filter((r) => r.Estado === 'A');
    const made = await as('requester', 'POST', `${BASE}/crear`, {
      Acreditaciones: [one.IdAcreditacion, two.IdAcreditacion],
      Observacion: 'Reducción de personal',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [first, second] = made.body.result.Solicitudes.map((r: Json) => r.IdSolicitud);
    const bare = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: first,
      Accion: 'RECHAZAR',
    });
    expect(bare.status).toBe(409);
    expect(bare.body.messageKey).toBe('accreditation.refusals.cannotReject');
    const observed = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: first,
      Accion: 'OBSERVAR',
      Observacion: 'Adjunte la carta de cese',
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    expect(observed.body.result.EstadoAprobacion).toBe('O');
    // The first is observed now: approving both stops at row 0, and the second stays pending.
    const mass = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Solicitudes: [first, second],
      Accion: 'APROBAR',
    });
    expect(mass.status).toBe(400);
    expect(Object.keys(mass.body.errors)).toEqual(['Solicitudes.0']);
    expect(mass.body.errors['Solicitudes.0'].messageKey).toBe('accreditation.refusals.notPending');
    const secondNow = (await as('authoriser', 'GET', `${BASE}/obtenerbyautorizador?IdSolicitud=${second}`))
      .body.result;
    expect(secondNow.EstadoAprobacion).toBe('P');
    expect(secondNow.acreditacion.Estado).toBe('A');
    expect(secondNow.revocados).toEqual([]);
    const rejected = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: second,
      Accion: 'RECHAZAR',
      MotivoRechazo: 'Trabajador aún asignado a la obra',
    });
    expect(rejected.body.result.EstadoAprobacion).toBe('R');
    expect(
      (await rest('admin', 'accreditation', { IdPersona: two.IdPersona })).find(
        (x: Json) => x.IdAcreditacion === two.IdAcreditacion,
      ).Estado,
    ).toBe('A');
  });

  it('keeps tenancy per role: another division’s requester and authoriser see nothing; a requester does not evaluate', async () => {
    const listed = (await as('requester', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1 })).body.result
      .data;
    const id = listed[0].IdSolicitud;
    for (const who of ['requesterNorth', 'authoriserNorth']) {
      const res = await as(who, 'GET', `${BASE}/obtenerbyautorizador?IdSolicitud=${id}`);
      expect(res.status).toBe(404);
    }
    const north = (await as('requesterNorth', 'POST', `${BASE}/FiltrarSolicitante`, { take: 1000 })).body
      .result.data;
    expect(north.map((r: Json) => r.IdSolicitud)).not.toContain(id);
    const evaluate = await as('requester', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(evaluate.status).toBe(403);
    const make = await as('authoriser', 'POST', `${BASE}/crear`, { Acreditaciones: [1], Observacion: 'X' });
    expect(make.status).toBe(403);
    const foreign = await as('authoriserNorth', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(foreign.status).toBe(404);
  });
});
