import { describe, expect, it } from 'vitest';
import { Badges } from '../../src/server/features/identification/badges.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { admitRoundTheClock } from '../support/access.js';
import { call } from '../support/app.js';
import { pageAsPng, readCode } from '../support/badge-codes.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const ENTRY_DOOR = 1;
const BASE = '/api/identificacion';

describe.each(DIALECTS)('identification management on %s', (dialect) => {
  let personId: number;
  let documento: string;
  let accreditationId: number;
  const today = siteDate('PE');
  const reasons: Record<string, number> = {};
  let typeId: number;

  const as = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    call(w.app, { method, url, token: tokens[who], payload });
  const credentials = () =>
    w.t.db.database.db
      .selectFrom('identification_credential')
      .selectAll()
      .where('IdPersona', '=', personId)
      .orderBy('IdCredencial')
      .execute() as Promise<Json[]>;

  const w = world(dialect, {
    users: {
      admin: { user: 'ADMIN', division: SOUTH },
      north: { user: 'ADMIN', division: NORTH },
      requester: { user: 'SOLICITANTE', division: SOUTH },
      authoriser: { user: 'AUTORIZADOR', division: SOUTH },
    },
    ready: async () => {
      const db = w.t.db.database.db;
      // An accredited demo worker of the south, let through the main gate round the clock, without a card.
      const person = (await db
        .selectFrom('accreditation_accreditation as a')
        .innerJoin('administration_person as p', 'p.IdPersona', 'a.IdPersona')
        .select(['p.IdPersona', 'p.Documento'])
        .where('a.IdDivision', '=', 1)
        .where('a.IdEntidad', '=', 'T')
        .orderBy('p.IdPersona', 'desc')
        .executeTakeFirstOrThrow()) as Json;
      personId = Number(person.IdPersona);
      documento = String(person.Documento);
      accreditationId = await admitRoundTheClock(db, personId, today, [ENTRY_DOOR]);
      await db.deleteFrom('identification_credential').where('IdPersona', '=', personId).execute();
      for (const r of (await db
        .selectFrom('identification_identification_reason')
        .selectAll()
        .execute()) as Json[])
        reasons[r.Descripcion] = Number(r.IdMotivo);
      typeId = Number(
        (
          (await db
            .selectFrom('identification_credential_type')
            .select('IdTipoCredencial')
            .where('Descripcion', '=', 'FOTOCHECK DE CONTRATISTA')
            .executeTakeFirstOrThrow()) as Json
        ).IdTipoCredencial,
      );
    },
  });
  const { tokens } = w;

  it('finds the accredited people of the division, with or without a credential', async () => {
    const found = await as('admin', 'GET', `${BASE}/titulares?buscar=${documento}`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.result.data).toEqual([
      expect.objectContaining({
        IdPersona: personId,
        Documento: documento,
        IdCredencial: null,
        Numero: null,
      }),
    ]);
    const all = await as('admin', 'GET', `${BASE}/titulares?take=5`);
    expect(all.body.result.totalCount).toBeGreaterThan(5);
    expect(all.body.result.data).toHaveLength(5);
    // The north's administrator does not see the south's people.
    const north = await as('north', 'GET', `${BASE}/titulares?buscar=${documento}`);
    expect(north.body.result.data).toEqual([]);
  });

  it('takes a searched % or _ as itself, not as a wildcard', async () => {
    const db = w.t.db.database.db;
    const [person] = (await db
      .selectFrom('administration_person')
      .select('Apellido')
      .where('IdPersona', '=', personId)
      .execute()) as Json[];
    await db
      .updateTable('administration_person')
      .set({ Apellido: 'DEL_CASTILLO' })
      .where('IdPersona', '=', personId)
      .execute();
    try {
      const search = async (text: string) =>
        (
          await as('admin', 'GET', `${BASE}/titulares?buscar=${encodeURIComponent(text)}`)
        ).body.result.data.map((r: Json) => r.IdPersona);
      expect(await search('DEL_CAS')).toEqual([personId]);
      expect(await search('L_C')).toEqual([personId]);
      expect(await search('DEL%TILLO')).toEqual([]);
    } finally {
      await db
        .updateTable('administration_person')
        .set({ Apellido: person.Apellido })
        .where('IdPersona', '=', personId)
        .execute();
    }
  });

  it('issues one credential at a time, within the accreditation, with a reason of issue', async () => {
    const issue = (body: object) =>
      as('admin', 'POST', `${BASE}/credenciales`, {
        IdPersona: personId,
        IdTipoCredencial: typeId,
        IdMotivoEmision: reasons['EMISIÓN INICIAL'],
        ...body,
      });
    // A reason of inactivation is no reason of issue; dates beyond the accreditation are refused.
    const badReason = await issue({ IdMotivoEmision: reasons.PÉRDIDA });
    expect(badReason.status).toBe(400);
    expect(badReason.body.messageKey).toBe('identification.badIssueReason');
    const beyond = await issue({ FechaFin: addDays(today, 400) });
    expect(beyond.status).toBe(400);
    expect(beyond.body.messageKey).toBe('identification.outsideAccreditation');
    const reversed = await issue({ FechaInicio: addDays(today, 5), FechaFin: addDays(today, 2) });
    expect(reversed.body.messageKey).toBe('rules.credentialStartAfterEnd');
    expect(await credentials()).toEqual([]);
    // Without an active identification type for workers, a worker is given no credential (spec message).
    const workerTypes = () =>
      w.t.db.database.db.updateTable('identification_identification_type').where('IdEntidad', '=', 'T');
    await workerTypes().set({ Activo: 'N' }).execute();
    const untyped = await issue({});
    expect(untyped.status).toBe(400);
    expect(untyped.body.message).toBe('Person has no identification type configured.');
    await workerTypes().set({ Activo: 'S' }).where('Descripcion', '<>', 'PASE DE PAPEL').execute();
    expect(await credentials()).toEqual([]);

    const issued = await issue({});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result).toMatchObject({
      IdPersona: personId,
      Activo: 'S',
      Impreso: 'N',
      FechaInicio: today,
      FechaFin: addDays(today, 60),
    });
    expect(issued.body.result.Numero).toMatch(/^FC-\d{6}$/);
    const again = await issue({});
    expect(again.status).toBe(400);
    expect(again.body.messageKey).toBe('rules.credentialActive');
    // The database holds the rule too, whoever writes.
    const [active] = await credentials();
    await expect(
      w.t.db.database.db
        .insertInto('identification_credential')
        .values({ ...active, IdCredencial: undefined, Numero: 'OTRA-1' })
        .execute(),
    ).rejects.toThrow();
  });

  it('reissues with a reason, the old one inactivated at once, and inactivates with a reason', async () => {
    const [old] = await credentials();
    const reissued = await as('admin', 'POST', `${BASE}/credenciales/${old.IdCredencial}/reemitir`, {
      IdMotivoInactivacion: reasons.PÉRDIDA,
      IdMotivoEmision: reasons['DUPLICADO POR PÉRDIDA'],
    });
    expect(reissued.status, JSON.stringify(reissued.body)).toBe(200);
    const rows = await credentials();
    expect(rows.map((r) => [r.Activo, r.IdMotivoInactivacion && Number(r.IdMotivoInactivacion)])).toEqual([
      ['N', reasons.PÉRDIDA],
      ['S', null],
    ]);
    expect(rows[1].Numero).not.toBe(rows[0].Numero);
    // A reissue that fails keeps the old one active: nothing half written.
    const refused = await as('admin', 'POST', `${BASE}/credenciales/${rows[1].IdCredencial}/reemitir`, {
      IdMotivoInactivacion: reasons.DETERIORO,
      IdMotivoEmision: reasons['DUPLICADO POR DETERIORO'],
      FechaFin: addDays(today, 900),
    });
    expect(refused.status).toBe(400);
    expect((await credentials()).filter((r) => r.Activo === 'S').map((r) => r.IdCredencial)).toEqual([
      rows[1].IdCredencial,
    ]);
    const inactivated = await as('admin', 'POST', `${BASE}/credenciales/${rows[1].IdCredencial}/inactivar`, {
      IdMotivoInactivacion: reasons.DETERIORO,
    });
    expect(inactivated.body.result).toMatchObject({ Activo: 'N', IdMotivoInactivacion: reasons.DETERIORO });
    const twice = await as('admin', 'POST', `${BASE}/credenciales/${rows[1].IdCredencial}/inactivar`, {
      IdMotivoInactivacion: reasons.DETERIORO,
    });
    expect(twice.body.messageKey).toBe('identification.alreadyInactive');
    // Of another division's session: not its to touch.
    const north = await as('north', 'POST', `${BASE}/credenciales`, {
      IdPersona: personId,
      IdTipoCredencial: typeId,
      IdMotivoEmision: reasons['EMISIÓN INICIAL'],
    });
    expect(north.body.messageKey).toBe('identification.notAccredited');
  });

  it('prints badges, recording who printed them, and names the people without a photo', async () => {
    const issued = await as('admin', 'POST', `${BASE}/credenciales`, {
      IdPersona: personId,
      IdTipoCredencial: typeId,
      IdMotivoEmision: reasons['EMISIÓN INICIAL'],
    });
    const id = issued.body.result.IdCredencial;
    await w.t.db.database.db
      .updateTable('administration_person')
      .set({ Foto: null })
      .where('IdPersona', '=', personId)
      .execute();
    for (const formato of ['tarjeta', 'a4']) {
      const printed = await as('admin', 'POST', `${BASE}/fotocheck`, { IdCredenciales: [id], formato });
      expect(printed.status, JSON.stringify(printed.body)).toBe(200);
      const pdf = Buffer.from(printed.body.result.fileBase64, 'base64');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(printed.body.result.sinFoto).toHaveLength(1);
    }
    const [row] = (await credentials()).filter((r) => r.Activo === 'S');
    expect(row).toMatchObject({ Impreso: 'S', IdUsuarioImpresion: 'ADMIN' });
    // The card's back as a picture: its QR reads as a token the server verifies, its barcode as the document.
    const card = await as('admin', 'POST', `${BASE}/fotocheck`, { IdCredenciales: [id] });
    const backSide = pageAsPng(Buffer.from(card.body.result.fileBase64, 'base64'), 2);
    const qr = readCode(backSide, 'QR_CODE', { x: 0, y: 0, width: 0.45, height: 0.7 });
    expect(qr.format).toBe('QR_CODE');
    const barcode = readCode(backSide, 'CODE_128', { x: 0, y: 0.66, width: 1, height: 0.24 });
    expect(barcode).toEqual({ format: 'CODE_128', text: documento });
    const verified = await as('admin', 'POST', `${BASE}/verificar`, { token: qr.text });
    expect(verified.body.result).toMatchObject({
      genuine: true,
      allow: true,
      credential: { IdCredencial: id, Numero: row.Numero },
    });
    expect(row.FechaImpresion).toBeTruthy();
    const inactive = (await credentials()).find((r) => r.Activo === 'N');
    const refused = await as('admin', 'POST', `${BASE}/fotocheck`, {
      IdCredenciales: [inactive.IdCredencial],
    });
    expect(refused.body.messageKey).toBe('identification.printInactive');
    const none = await as('admin', 'POST', `${BASE}/fotocheck`, { IdCredenciales: [] });
    expect(none.status).toBe(400);
  });

  it('verifies a badge: genuine and allowed, forged, malformed, of another client, revoked', async () => {
    const badges = new Badges(w.t.db.database.db, w.registry, w.app.qualifications);
    const [active] = (await credentials()).filter((r) => r.Activo === 'S');
    const claims = {
      IdCliente: 1,
      IdDivision: 1,
      IdCredencial: Number(active.IdCredencial),
      Numero: String(active.Numero),
      Titular: `P:${personId}`,
      Hasta: String(active.FechaFin).slice(0, 10),
    };
    const token = await badges.token(claims);
    const verify = (body: object, who = 'admin') => as(who, 'POST', `${BASE}/verificar`, body);
    const genuine = await verify({ token });
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect(genuine.body.result).toMatchObject({ genuine: true, allow: true, reason: 'ALLOWED' });
    expect(genuine.body.result.holder.Documento).toBe(documento);
    const atDoor = await verify({ token, IdPuerta: ENTRY_DOOR });
    expect(atDoor.body.result.allow).toBe(true);
    // A genuine token past its own last day, while its credential's row is still active: refused.
    const lapsed = await verify({ token: await badges.token({ ...claims, Hasta: '2020-01-31' }) });
    expect(lapsed.body.result).toMatchObject({ genuine: true, allow: false, reason: 'CREDENTIAL_EXPIRED' });

    const [prefix, , signature] = token.split('.');
    const altered = Buffer.from(
      `1|1|${claims.IdCredencial}|${claims.Numero}|${claims.Titular}|2099-12-31`,
    ).toString('base64url');
    expect((await verify({ token: `${prefix}.${altered}.${signature}` })).body.result).toMatchObject({
      genuine: false,
      allow: false,
      reason: 'TOKEN_FORGED',
    });
    expect((await verify({ token: 'https://example.com/no-soy-un-fotocheck' })).body.result).toMatchObject({
      genuine: false,
      reason: 'TOKEN_MALFORMED',
    });
    const other = await badges.token({ ...claims, IdCliente: 99 });
    expect((await verify({ token: other })).body.result).toMatchObject({
      genuine: true,
      allow: false,
      reason: 'TOKEN_OTHER_CLIENT',
    });
    // In English, with the reason's words.
    const english = await call(w.app, {
      method: 'POST',
      url: `${BASE}/verificar`,
      token: tokens.admin,
      payload: { token: other },
      headers: { 'accept-language': 'en' },
    });
    expect(english.body.result.message).toBe('The badge belongs to another client');
    // Revoked: the card inactivated; then the accreditation ended.
    await as('admin', 'POST', `${BASE}/credenciales/${active.IdCredencial}/inactivar`, {
      IdMotivoInactivacion: reasons.ROBO,
    });
    expect((await verify({ token })).body.result).toMatchObject({
      genuine: true,
      allow: false,
      reason: 'CREDENTIAL_INACTIVE',
    });
    await w.t.db.database.db
      .updateTable('identification_credential')
      .set({ Activo: 'S' })
      .where('IdCredencial', '=', active.IdCredencial)
      .execute();
    await w.t.db.database.db
      .updateTable('accreditation_accreditation')
      .set({ Estado: 'T' })
      .where('IdAcreditacion', '=', accreditationId)
      .execute();
    expect((await verify({ token })).body.result).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_TERMINATED',
    });
  });

  it('issues, prints and verifies a vehicle’s windscreen card, one active at a time', async () => {
    const db = w.t.db.database.db;
    const vehicle = (await db
      .selectFrom('accreditation_accreditation as a')
      .innerJoin('administration_vehicle as v', 'v.IdVehiculo', 'a.IdVehiculo')
      .select(['v.IdVehiculo', 'v.Placa'])
      .where('a.IdDivision', '=', 1)
      .where('a.IdEntidad', '=', 'V')
      .orderBy('v.IdVehiculo')
      .executeTakeFirstOrThrow()) as Json;
    const vehicleId = Number(vehicle.IdVehiculo);
    await admitRoundTheClock(db, { vehicle: vehicleId }, today, [ENTRY_DOOR]);
    await db.deleteFrom('identification_credential').where('IdVehiculo', '=', vehicleId).execute();
    // Found among the vehicles by its plate, not among the people.
    const listed = await as('admin', 'GET', `${BASE}/titulares?tipo=V&buscar=${vehicle.Placa}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.result.data).toEqual([
      expect.objectContaining({
        Titular: `V:${vehicleId}`,
        TipoTitular: 'V',
        IdVehiculo: vehicleId,
        IdPersona: null,
        Documento: vehicle.Placa,
        IdCredencial: null,
      }),
    ]);
    expect((await as('admin', 'GET', `${BASE}/titulares?buscar=${vehicle.Placa}`)).body.result.data).toEqual(
      [],
    );
    const tag = Number(
      (
        (await db
          .selectFrom('identification_credential_type')
          .select('IdTipoCredencial')
          .where('Descripcion', '=', 'TAG VEHICULAR')
          .executeTakeFirstOrThrow()) as Json
      ).IdTipoCredencial,
    );
    const issue = (body: object) =>
      as('admin', 'POST', `${BASE}/credenciales`, {
        IdTipoCredencial: tag,
        IdMotivoEmision: reasons['EMISIÓN INICIAL'],
        ...body,
      });
    // A person and a vehicle at once, or neither, is refused; so is a vehicle not accredited here.
    for (const body of [{ IdVehiculo: vehicleId, IdPersona: personId }, {}]) {
      const refused = await issue(body);
      expect(refused.status).toBe(400);
      expect(refused.body.messageKey).toBe('identification.oneHolder');
    }
    const stranger = (await db
      .selectFrom('administration_vehicle as v')
      .select('v.IdVehiculo')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('accreditation_accreditation as a')
              .select('a.IdAcreditacion')
              .whereRef('a.IdVehiculo', '=', 'v.IdVehiculo'),
          ),
        ),
      )
      .executeTakeFirst()) as Json;
    if (stranger) {
      const refused = await issue({ IdVehiculo: Number(stranger.IdVehiculo) });
      expect(refused.body.messageKey).toBe('identification.vehicleNotAccredited');
    }
    const issued = await issue({ IdVehiculo: vehicleId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result).toMatchObject({
      TipoTitular: 'V',
      IdVehiculo: vehicleId,
      IdPersona: null,
      Activo: 'S',
    });
    const again = await issue({ IdVehiculo: vehicleId });
    expect(again.body.messageKey).toBe('rules.credentialActive');
    // The database holds one active card per vehicle too.
    await expect(
      db
        .insertInto('identification_credential')
        .values({ ...issued.body.result, IdCredencial: undefined, Numero: 'OTRA-V1' })
        .execute(),
    ).rejects.toThrow();

    // Its card: the plate where a photo goes, nobody missing a photo; the back's QR a token for the
    // vehicle, its barcode the plate.
    const printed = await as('admin', 'POST', `${BASE}/fotocheck`, {
      IdCredenciales: [issued.body.result.IdCredencial],
    });
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    expect(printed.body.result.sinFoto).toEqual([]);
    const backSide = pageAsPng(Buffer.from(printed.body.result.fileBase64, 'base64'), 2);
    const qr = readCode(backSide, 'QR_CODE', { x: 0, y: 0, width: 0.45, height: 0.7 });
    expect(readCode(backSide, 'CODE_128', { x: 0, y: 0.66, width: 1, height: 0.24 })).toEqual({
      format: 'CODE_128',
      text: vehicle.Placa,
    });
    const verified = await as('admin', 'POST', `${BASE}/verificar`, { token: qr.text, IdPuerta: ENTRY_DOOR });
    expect(verified.body.result).toMatchObject({
      genuine: true,
      allow: true,
      reason: 'ALLOWED',
      holder: { Documento: vehicle.Placa },
    });
    // Reissued (lost), the old card is turned away, the new one is not.
    const reissued = await as(
      'admin',
      'POST',
      `${BASE}/credenciales/${issued.body.result.IdCredencial}/reemitir`,
      {
        IdMotivoInactivacion: reasons.PÉRDIDA,
        IdMotivoEmision: reasons['DUPLICADO POR PÉRDIDA'],
      },
    );
    expect(reissued.status, JSON.stringify(reissued.body)).toBe(200);
    expect(reissued.body.result).toMatchObject({ IdVehiculo: vehicleId, Activo: 'S' });
    expect((await as('admin', 'POST', `${BASE}/verificar`, { token: qr.text })).body.result).toMatchObject({
      genuine: true,
      allow: false,
      reason: 'CREDENTIAL_INACTIVE',
    });
    // Each write left its row in the audit trail, by whom: issued, printed, inactivated; the new one issued.
    const trail = (await db
      .selectFrom('security_audit')
      .select(['Operacion', 'IdRegistro', 'IdUsuario'])
      .where('Recurso', '=', 'credential')
      .where('IdRegistro', 'in', [
        String(issued.body.result.IdCredencial),
        String(reissued.body.result.IdCredencial),
      ])
      .orderBy('IdAuditoria')
      .execute()) as Json[];
    expect(trail.map((r) => [r.Operacion, Number(r.IdRegistro), r.IdUsuario])).toEqual([
      ['C', issued.body.result.IdCredencial, 'ADMIN'],
      ['U', issued.body.result.IdCredencial, 'ADMIN'],
      ['U', issued.body.result.IdCredencial, 'ADMIN'],
      ['C', reissued.body.result.IdCredencial, 'ADMIN'],
    ]);
  });

  it('answers offices issuing to one holder at once with one credential and the rule for the others', async () => {
    const listed = await as('admin', 'GET', `${BASE}/titulares?take=100`);
    const holder = listed.body.result.data.find(
      (h: Json) => h.IdCredencial === null && h.IdPersona !== personId,
    );
    expect(holder).toBeTruthy();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        as('admin', 'POST', `${BASE}/credenciales`, {
          IdPersona: holder.IdPersona,
          IdTipoCredencial: typeId,
          IdMotivoEmision: reasons['EMISIÓN INICIAL'],
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(refused.body).toMatchObject({ status: 400, messageKey: 'rules.credentialActive' });
  });

  it('lets only the identification office issue and print, and no contractor verify', async () => {
    for (const who of ['requester', 'authoriser']) {
      expect((await as(who, 'GET', `${BASE}/titulares`)).status).toBe(403);
      expect(
        (
          await as(who, 'POST', `${BASE}/credenciales`, {
            IdPersona: personId,
            IdTipoCredencial: typeId,
            IdMotivoEmision: reasons['EMISIÓN INICIAL'],
          })
        ).status,
      ).toBe(403);
      expect((await as(who, 'POST', `${BASE}/fotocheck`, { IdCredenciales: [1] })).status).toBe(403);
    }
    expect((await as('requester', 'POST', `${BASE}/verificar`, { token: 'x' })).status).toBe(403);
    // Another division's credential is not found from here.
    const [row] = await credentials();
    expect((await as('admin', 'POST', `${BASE}/fotocheck`, { IdCredenciales: [999_999] })).status).toBe(404);
    expect(row).toBeTruthy();
  });
});
