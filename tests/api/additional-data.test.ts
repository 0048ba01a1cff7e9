import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, fillRequest, workerRequest } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * Additional data act (Administration > Additional data): the request of a worker shows the
 * client's active data of its entity with its values; they are saved with the request, each
 * checked by its type and length, and a mandatory one is required before the request is sent.
 */
describe.each(DIALECTS)('additional data of a request on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
      data = await cat.list('additional-data', { IdEntidad: 'T', Activo: 'S' });
    },
  });
  const { as, tokens } = w;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let contract: number;
  let data: Json[];
  const today = siteDate('PE');
  const datum = (name: string) => data.find((d) => d.Dato === name).IdDatoAdicional as number;

  const file = (extra: object = {}) =>
    as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      workerRequest(cat, contract, today, {
        Documento: '72500111',
        Apellido: 'Huamán Quispe',
        Nombre: 'Julia',
        ...extra,
      }),
    );
  const record = async (id: number) =>
    (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).body.result;

  it('saves the values with the request and shows them with the client’s data, in their order', async () => {
    const made = await file({
      DatosAdicionales: [
        { IdDatoAdicional: datum('TALLA DE CAMISA'), Valor: 'M' },
        { IdDatoAdicional: datum('TALLA DE CALZADO'), Valor: '41' },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const shown = (await record(made.body.result.IdSolicitud)).DatosAdicionales as Json[];
    expect(shown.map((d) => d.Dato)).toEqual(data.sort((a, b) => a.Orden - b.Orden).map((d) => d.Dato));
    expect(shown.find((d) => d.Dato === 'TALLA DE CAMISA').Valor).toBe('M');
    expect(shown.find((d) => d.Dato === 'TALLA DE CALZADO').Valor).toBe('41');
    expect(shown.find((d) => d.Dato === 'GRUPO OCUPACIONAL').Valor).toBeNull();
    // Saved again as a JSON string (as a multipart form sends it): changed and cleared.
    const saved = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: made.body.result.IdSolicitud,
      DatosAdicionales: JSON.stringify([
        { IdDatoAdicional: datum('TALLA DE CAMISA'), Valor: 'L' },
        { IdDatoAdicional: datum('TALLA DE CALZADO'), Valor: '' },
      ]),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const again = (await record(made.body.result.IdSolicitud)).DatosAdicionales as Json[];
    expect(again.find((d) => d.Dato === 'TALLA DE CAMISA').Valor).toBe('L');
    expect(again.find((d) => d.Dato === 'TALLA DE CALZADO').Valor).toBeNull();
  });

  it('refuses a value of the wrong type or length, or a datum of another entity, writing nothing', async () => {
    const requests = await w.count('request');
    const wrong = await file({
      Documento: '72500112',
      DatosAdicionales: [
        { IdDatoAdicional: datum('TALLA DE CALZADO'), Valor: 'cuarenta' },
        { IdDatoAdicional: datum('TALLA DE CAMISA'), Valor: 'XXXXXL' },
        { IdDatoAdicional: datum('FECHA DEL ÚLTIMO EXAMEN MÉDICO OCUPACIONAL'), Valor: '2026-02-30' },
      ],
    });
    expect(wrong.status).toBe(400);
    const errors = wrong.body.errors;
    expect(errors[`DatosAdicionales.${datum('TALLA DE CALZADO')}`].message).toBe(
      'TALLA DE CALZADO: must be a number.',
    );
    expect(errors[`DatosAdicionales.${datum('TALLA DE CAMISA')}`].message).toBe(
      'TALLA DE CAMISA: takes at most 5 characters.',
    );
    expect(errors[`DatosAdicionales.${datum('FECHA DEL ÚLTIMO EXAMEN MÉDICO OCUPACIONAL')}`].messageKey).toBe(
      'additionalData.notADate',
    );
    const vehicleDatum = (await cat.list('additional-data', { IdEntidad: 'V' }))[0].IdDatoAdicional;
    const other = await file({
      Documento: '72500113',
      DatosAdicionales: [{ IdDatoAdicional: vehicleDatum, Valor: 'X' }],
    });
    expect(other.status).toBe(400);
    expect((await file({ Documento: '72500114', DatosAdicionales: '{no' })).status).toBe(400);
    expect(await w.count('request')).toBe(requests);
  });

  it('requires a mandatory datum before sending, and sends once it has its value', async () => {
    const mandatory = datum('GRUPO OCUPACIONAL');
    await w
      .db()
      .updateTable(w.table('additional-data'))
      .set({ Obligatorio: 'S' })
      .where('IdDatoAdicional', '=', mandatory)
      .execute();
    const made = await file({ Documento: '72500115' });
    const id = made.body.result.IdSolicitud;
    await fillRequest(w.app, tokens.requester, id, addDays(today, 200));
    const refused = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[`DatosAdicionales.${mandatory}`].messageKey).toBe('validation.required');
    await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      DatosAdicionales: [{ IdDatoAdicional: mandatory, Valor: 'OPERADOR DE EQUIPO PESADO' }],
    });
    const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(sent.body.result?.EstadoAprobacion, JSON.stringify(sent.body)).toBe('P');
    await w
      .db()
      .updateTable(w.table('additional-data'))
      .set({ Obligatorio: 'N' })
      .where('IdDatoAdicional', '=', mandatory)
      .execute();
  });
});
