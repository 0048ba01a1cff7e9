import { describe, expect, it } from 'vitest';
import { pdf, upload } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';
const MESSAGE = 'No upload or download path configured.';

/**
 * Repository paths act (System > Repository paths): a call that uploads or downloads a kind of
 * file needs the client's active path of that use (photos, documents, bulk uploads); without it
 * the call is refused with the specification's message, in the caller's language, before any file
 * is read or kept, and the other kinds go on.
 */
describe.each(DIALECTS)('repository paths on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    ready: async () => {
      const line = (await w
        .db()
        .selectFrom(`${w.table('request-detail')} as d`)
        .innerJoin(`${w.table('request')} as r`, 'r.IdSolicitud', 'd.IdSolicitud')
        .select(['d.IdSolicitud', 'd.IdDetalle', 'd.IdDatoEvaluar'])
        .where('d.ClaveArchivo', 'is not', null)
        .where('r.IdEntidad', '=', 'T')
        .where('r.EstadoAprobacion', '=', 'P')
        .orderBy('d.IdDetalle')
        .executeTakeFirstOrThrow()) as Json;
      request = line.IdSolicitud;
      detail = line.IdDetalle;
    },
  });
  let request: number;
  let detail: number;
  const { as, db, table } = w;
  const use = (Uso: string, Activo: 'S' | 'N') =>
    db().updateTable(table('repository-path')).set({ Activo }).where('Uso', '=', Uso).execute();
  const download = (language = 'en') =>
    as(
      'authoriser',
      'GET',
      `/api/acreditacionsolicituddetalle/downloadFileBase64?IdSolicitud=${request}&IdFile=${detail}`,
      undefined,
      { headers: { 'accept-language': language } },
    );
  const files = async () =>
    Number(
      (
        (await db()
          .selectFrom(table('request-detail'))
          .select((eb) => eb.fn.count('ClaveArchivo').as('n'))
          .executeTakeFirstOrThrow()) as Json
      ).n,
    );

  it('serves a document while the documents’ path is active, and refuses it once none is', async () => {
    const served = await download();
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(Buffer.from(served.body.result.file, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    await use('D', 'N');
    const refused = await download();
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MESSAGE);
    expect((await download('es')).body.message).toBe('No hay una ruta de carga o descarga configurada.');
    // The photos' path still serves photos.
    const photo = await as('authoriser', 'GET', `${BASE}/descargarfoto?IdSolicitud=${request}`);
    expect(photo.status).not.toBe(400);
    await use('D', 'S');
    expect((await download()).status).toBe(200);
  });

  it('refuses an upload without its path before keeping anything', async () => {
    await use('D', 'N');
    const before = await files();
    const refused = await upload(
      w.app,
      w.tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: request, IdDatoEvaluar: 1 },
      { name: 'constancia.pdf', bytes: pdf('CONSTANCIA'), type: 'application/pdf' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MESSAGE);
    expect(await files()).toBe(before);
    await use('D', 'S');
    await use('M', 'N');
    const bulk = await upload(
      w.app,
      w.tokens.requester,
      `${BASE}/cargamasiva`,
      { IdEntidad: 'T' },
      {
        name: 'carga.xlsx',
        bytes: Buffer.from('PK'),
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    );
    expect(bulk.status).toBe(400);
    expect(bulk.body.message).toBe(MESSAGE);
    await use('M', 'S');
  });
});
