import { describe, expect, it } from 'vitest';
import { referencedFiles } from '../../src/server/features/accreditation/file-sweep.js';
import { sweepOrphans } from '../../src/server/storage/files.js';
import { PHOTO } from '../../src/shared/constants.js';
import { multipart, pdf, upload } from '../support/accreditation.js';
import { anotherClientAdmin, listUrl, menuIdOf } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { png } from '../support/png.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const PERSON = '/api/AdministracionPersona';
const VEHICLE = '/api/AdministracionVehiculo';

/**
 * A person's mobile and extra photos and a vehicle's photos (spec section 3), kept in the file
 * store behind the photos' repository path and checked as the profile photo is (spec section 5):
 * whoever may change the person or vehicle adds, lists, shows and removes them; a wrong type, size
 * or dimension is refused with its message and nothing is written; another company's requester
 * and another client's administrator do not find them; a ceased person's are read-only.
 */
describe.each(DIALECTS)('photos of people and vehicles on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    ready: async () => {
      const own = (await w.as('requester', 'GET', listUrl('person', { range: [0, 999] }))).body as Json[];
      const everyone = (await w.as('admin', 'GET', listUrl('person', { range: [0, 999] }))).body as Json[];
      const mine = own.filter((p) => p.Condicion !== 'C');
      ownPerson = mine[0];
      ceased = own.find((p) => p.Condicion === 'C') ?? mine[1];
      otherPerson = everyone.find((p) => !own.some((o) => o.id === p.id));
      const vehicles = (await w.as('requester', 'GET', listUrl('vehicle', { range: [0, 999] })))
        .body as Json[];
      const allVehicles = (await w.as('admin', 'GET', listUrl('vehicle', { range: [0, 999] })))
        .body as Json[];
      ownVehicle = vehicles[0];
      otherVehicle = allVehicles.find((v) => !vehicles.some((o) => o.id === v.id));
    },
  });
  let ownPerson: Json;
  let ceased: Json;
  let otherPerson: Json;
  let ownVehicle: Json;
  let otherVehicle: Json;
  const { as, tokens } = w;

  const add = (
    who: string,
    base: string,
    fields: Record<string, string | number>,
    name: string,
    bytes: Buffer,
  ) => upload(w.app, tokens[who], `${base}/subirfoto`, fields, { name, bytes });
  const image = (token: string, url: string) =>
    w.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    });
  const photosOf = async (who: string, url: string) => (await as(who, 'GET', url)).body.result as Json[];

  it('finds its cast: the requester’s own person and vehicle, and another company’s', () => {
    expect(ownPerson).toBeDefined();
    expect(otherPerson).toBeDefined();
    expect(ownPerson.IdCompania).not.toBe(otherPerson.IdCompania);
    expect(ownVehicle).toBeDefined();
    expect(otherVehicle).toBeDefined();
  });

  it('adds, lists, shows and removes a person’s mobile and extra photos; a new mobile photo replaces the old', async () => {
    const id = ownPerson.id;
    const list = `${PERSON}/fotos?IdPersona=${id}`;
    const mobile = await add('requester', PERSON, { IdPersona: id, Tipo: 'M' }, 'movil.png', png(150, 160));
    expect(mobile.status, JSON.stringify(mobile.body)).toBe(200);
    expect(mobile.body.result).toMatchObject({
      IdPersona: id,
      Tipo: 'M',
      NombreArchivo: 'movil.png',
      Ancho: 150,
      Alto: 160,
    });
    expect(mobile.body.result.ClaveArchivo).toBeUndefined();
    const extra1 = await add(
      'requester',
      PERSON,
      { IdPersona: id, Tipo: 'E' },
      'extra1.png',
      png(140, 150, [200, 10, 10]),
    );
    const extra2 = await add(
      'admin',
      PERSON,
      { IdPersona: id, Tipo: 'E' },
      'extra2.png',
      png(160, 170, [10, 200, 10]),
    );
    expect([extra1.status, extra2.status]).toEqual([200, 200]);
    const listed = await photosOf('requester', list);
    expect(listed.map((p) => [p.Tipo, p.NombreArchivo])).toEqual([
      ['M', 'movil.png'],
      ['E', 'extra1.png'],
      ['E', 'extra2.png'],
    ]);
    // The image as it was sent, to whoever reaches the person (the authoriser reads people).
    const shown = await image(
      tokens.authoriser,
      `${PERSON}/descargarfoto?IdFotoPersona=${extra1.body.result.IdFotoPersona}`,
    );
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.rawPayload.equals(png(140, 150, [200, 10, 10]))).toBe(true);

    const second = await add(
      'requester',
      PERSON,
      { IdPersona: id, Tipo: 'M' },
      'movil2.png',
      png(150, 160, [1, 2, 3]),
    );
    expect(second.status).toBe(200);
    const after = await photosOf('admin', list);
    expect(after.filter((p) => p.Tipo === 'M').map((p) => p.NombreArchivo)).toEqual(['movil2.png']);
    expect(await w.count('person-photo', { IdPersona: id })).toBe(3);

    const removed = await as(
      'requester',
      'DELETE',
      `${PERSON}/eliminarfoto?IdFotoPersona=${extra1.body.result.IdFotoPersona}`,
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await photosOf('requester', list)).map((p) => p.NombreArchivo)).toEqual(
      ['extra2.png', 'movil2.png'].sort(),
    );
    const gone = await image(
      tokens.requester,
      `${PERSON}/descargarfoto?IdFotoPersona=${extra1.body.result.IdFotoPersona}`,
    );
    expect(gone.statusCode).toBe(404);
    // Each change is in the audit trail, by whom.
    const audited = (await w
      .db()
      .selectFrom(w.table('audit'))
      .select(['Operacion', 'IdUsuario', 'IdRegistro'])
      .where('Recurso', '=', 'person-photo')
      .execute()) as Json[];
    expect(audited.find((a) => a.IdRegistro === String(extra2.body.result.IdFotoPersona))?.IdUsuario).toBe(
      'ADMIN',
    );
    expect(audited.filter((a) => a.Operacion === 'C')).toHaveLength(4);
    expect(audited.filter((a) => a.Operacion === 'D')).toHaveLength(2);
  });

  it('adds, lists, shows and removes a vehicle’s photos', async () => {
    const id = ownVehicle.id;
    const sent = await add('requester', VEHICLE, { IdVehiculo: id }, 'frente.jpg', png(150, 160, [9, 9, 9]));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    // Its type is its content's, whatever its name says.
    expect(sent.body.result).toMatchObject({
      IdVehiculo: id,
      TipoArchivo: 'image/png',
      NombreArchivo: 'frente.jpg',
    });
    const photo = sent.body.result.IdFotoVehiculo;
    expect(
      (await photosOf('requester', `${VEHICLE}/fotos?IdVehiculo=${id}`)).map((p) => p.IdFotoVehiculo),
    ).toEqual([photo]);
    const shown = await image(tokens.admin, `${VEHICLE}/descargarfoto?IdFotoVehiculo=${photo}`);
    expect(shown.rawPayload.equals(png(150, 160, [9, 9, 9]))).toBe(true);
    expect((await as('requester', 'DELETE', `${VEHICLE}/eliminarfoto?IdFotoVehiculo=${photo}`)).status).toBe(
      200,
    );
    expect(await photosOf('admin', `${VEHICLE}/fotos?IdVehiculo=${id}`)).toEqual([]);
  });

  it('refuses a wrong type, size or dimensions with the message, writing nothing', async () => {
    const id = ownVehicle.id;
    const before = await w.count('vehicle-photo');
    const try_ = (name: string, bytes: Buffer) => add('requester', VEHICLE, { IdVehiculo: id }, name, bytes);
    const notImage = await try_('carta.pdf', pdf());
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toBe('The image must be .png, .jpg or .jpeg.');
    const tooWide = await try_('ancha.png', png(1200, 1600));
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.messageKey).toBe('accreditation.files.dimensions');
    expect(tooWide.body.message).toBe(
      'The image is 1200×1600 pixels; it must be 113 to 187 wide and 120 to 200 high.',
    );
    const huge = await try_('pesada.png', Buffer.concat([png(150, 160), Buffer.alloc(5001 * 1024)]));
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('The file is larger than 5000 KB.');
    const none = await upload(w.app, tokens.requester, `${VEHICLE}/subirfoto`, { IdVehiculo: id });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Choose the photo’s image.');
    const kind = await add(
      'requester',
      PERSON,
      { IdPersona: ownPerson.id, Tipo: 'X' },
      'a.png',
      png(150, 160),
    );
    expect(kind.status).toBe(400);
    expect(kind.body.errors.Tipo.message).toBe('The kind of photo must be M (mobile) or E (extra).');
    // In the caller's language.
    const body = multipart({ IdVehiculo: id }, { name: 'c.pdf', bytes: pdf() });
    const spanish = await w.app.inject({
      method: 'POST',
      url: `${VEHICLE}/subirfoto`,
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${tokens.requester}`, 'accept-language': 'es' },
    });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().message).toBe('La imagen debe ser .png, .jpg o .jpeg.');
    expect(await w.count('vehicle-photo')).toBe(before);
  });

  it('allows up to the maximum of extra photos, then refuses with the message', async () => {
    const id = ownVehicle.id;
    for (let n = 0; n < PHOTO.maxPerRecord; n++) {
      const sent = await add('admin', VEHICLE, { IdVehiculo: id }, `v${n}.png`, png(150, 160, [n, n, n]));
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    const over = await add('admin', VEHICLE, { IdVehiculo: id }, 'otra.png', png(150, 160, [99, 0, 0]));
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      `It already has the ${PHOTO.maxPerRecord} photos allowed: remove one to add another.`,
    );
    expect(await w.count('vehicle-photo', { IdVehiculo: id })).toBe(PHOTO.maxPerRecord);
  });

  it('keeps them to who may change the record: another company, a reader, another client', async () => {
    const theirs = await add(
      'admin',
      PERSON,
      { IdPersona: otherPerson.id, Tipo: 'E' },
      'ajena.png',
      png(150, 160, [5, 5, 5]),
    );
    expect(theirs.status).toBe(200);
    const photo = theirs.body.result.IdFotoPersona;
    const before = await w.count('person-photo');
    // Another company's requester finds neither the person nor the photo.
    expect(
      (await add('requester', PERSON, { IdPersona: otherPerson.id, Tipo: 'E' }, 'x.png', png(150, 160)))
        .status,
    ).toBe(404);
    expect((await as('requester', 'GET', `${PERSON}/fotos?IdPersona=${otherPerson.id}`)).status).toBe(404);
    expect((await image(tokens.requester, `${PERSON}/descargarfoto?IdFotoPersona=${photo}`)).statusCode).toBe(
      404,
    );
    expect((await as('requester', 'DELETE', `${PERSON}/eliminarfoto?IdFotoPersona=${photo}`)).status).toBe(
      404,
    );
    expect(
      (await add('requester', VEHICLE, { IdVehiculo: otherVehicle.id }, 'x.png', png(150, 160))).status,
    ).toBe(404);
    // The authoriser reads people but does not change them.
    expect((await as('authoriser', 'GET', `${PERSON}/fotos?IdPersona=${otherPerson.id}`)).status).toBe(200);
    expect(
      (await add('authoriser', PERSON, { IdPersona: otherPerson.id, Tipo: 'E' }, 'x.png', png(150, 160)))
        .status,
    ).toBe(403);
    expect((await as('authoriser', 'DELETE', `${PERSON}/eliminarfoto?IdFotoPersona=${photo}`)).status).toBe(
      403,
    );
    // Another client's administrator, with the people's screen and a photos' path of its own.
    const stranger = await anotherClientAdmin(w.t, [
      await menuIdOf(w.t, '/person'),
      await menuIdOf(w.t, '/vehicle'),
    ]);
    const ours = (await w.as('admin', 'GET', listUrl('repository-path', { filter: { Uso: 'F' } }))).body[0];
    const client = (await w
      .db()
      .selectFrom(w.table('client'))
      .select('IdCliente')
      .where('Cliente', '=', 'MINERA DEL PACÍFICO NORTE S.A.')
      .executeTakeFirstOrThrow()) as Json;
    const { id: _id, IdRuta: _key, IdCliente: _client, ...path } = ours;
    await w.app.crud.create(w.registry.require('repository-path'), path, {
      userId: 'SISTEMA',
      clientId: client.IdCliente,
    });
    const call = (method: 'GET' | 'DELETE', url: string) =>
      w.app.inject({ method, url, headers: { authorization: `Bearer ${stranger}` } });
    expect((await call('GET', `${PERSON}/fotos?IdPersona=${otherPerson.id}`)).statusCode).toBe(404);
    expect((await call('GET', `${PERSON}/descargarfoto?IdFotoPersona=${photo}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${PERSON}/eliminarfoto?IdFotoPersona=${photo}`)).statusCode).toBe(404);
    expect(
      (
        await upload(
          w.app,
          stranger,
          `${PERSON}/subirfoto`,
          { IdPersona: otherPerson.id, Tipo: 'E' },
          { name: 'x.png', bytes: png(150, 160) },
        )
      ).status,
    ).toBe(404);
    expect(await w.count('person-photo')).toBe(before);
  });

  it('needs the photos’ repository path, and keeps a ceased person’s photos as they are', async () => {
    await w
      .db()
      .updateTable(w.table('repository-path'))
      .set({ Activo: 'N' })
      .where('Uso', '=', 'F')
      .execute();
    const refused = await add('admin', VEHICLE, { IdVehiculo: ownVehicle.id }, 'x.png', png(150, 160));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('No upload or download path configured.');
    await w
      .db()
      .updateTable(w.table('repository-path'))
      .set({ Activo: 'S' })
      .where('Uso', '=', 'F')
      .execute();

    const id = ceased.id;
    const kept = await add(
      'admin',
      PERSON,
      { IdPersona: id, Tipo: 'E' },
      'antes.png',
      png(150, 160, [7, 7, 7]),
    );
    expect(kept.status).toBe(200);
    await w.db().updateTable(w.table('person')).set({ Condicion: 'C' }).where('IdPersona', '=', id).execute();
    const locked = await add('admin', PERSON, { IdPersona: id, Tipo: 'E' }, 'despues.png', png(150, 160));
    expect(locked.status).toBe(400);
    expect(locked.body.messageKey).toBe('rules.personCeased');
    const removal = await as(
      'admin',
      'DELETE',
      `${PERSON}/eliminarfoto?IdFotoPersona=${kept.body.result.IdFotoPersona}`,
    );
    expect(removal.body.messageKey).toBe('rules.personCeased');
    expect(await w.count('person-photo', { IdPersona: id })).toBe(1);
  });

  it('keeps a photo’s file through the orphan sweep while a photo names it', async () => {
    const sent = await add(
      'admin',
      PERSON,
      { IdPersona: ownPerson.id, Tipo: 'E' },
      'k.png',
      png(150, 160, [77, 1, 1]),
    );
    expect(sent.status).toBe(200);
    const row = (await w
      .db()
      .selectFrom(w.table('person-photo'))
      .select('ClaveArchivo')
      .where('IdFotoPersona', '=', sent.body.result.IdFotoPersona)
      .executeTakeFirstOrThrow()) as Json;
    const orphan = await w.app.files.put(Buffer.from('a photo whose row rolled back'));
    await sweepOrphans(w.app.files, referencedFiles(w.t.db.database, w.registry), {
      now: Date.now() + 2 * 3_600_000,
    });
    expect(await w.app.files.get(orphan)).toBeUndefined();
    expect((await w.app.files.get(row.ClaveArchivo))?.equals(png(150, 160, [77, 1, 1]))).toBe(true);
  });

  it('deletes a vehicle’s photos with the vehicle', async () => {
    const made = await as('admin', 'POST', '/api/rest/vehicle', {
      ...Object.fromEntries(
        Object.entries(ownVehicle).filter(([k]) =>
          ['IdTipoVehiculo', 'IdMarca', 'IdCompania', 'Estado', 'ModoMarcacion', 'Serie'].includes(k),
        ),
      ),
      Placa: 'FOT-123',
      Serie: 'FOTSERIE123',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(
      (await add('admin', VEHICLE, { IdVehiculo: made.body.id }, 'a.png', png(150, 160, [3, 3, 3]))).status,
    ).toBe(200);
    expect((await as('admin', 'DELETE', `/api/rest/vehicle/${made.body.id}`)).status).toBe(200);
    expect(await w.count('vehicle-photo', { IdVehiculo: made.body.id })).toBe(0);
  });
});
