import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, listUrl, type SignedIn, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

describe.each(DIALECTS)('saved filters on %s', (dialect) => {
  let t: TestApp;
  const as = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(t.app, { method, url, payload, token: who.accessToken });
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps a user’s saved filters on the server, for that user alone, from any session', async () => {
    const requester = await signIn(t.app, 'SOLICITANTE');
    const Filtro = JSON.stringify({
      filter: { Condicion: 'T' },
      sort: { field: 'Apellido', order: 'ASC' },
      perPage: 20,
    });
    const saved = await as(requester, 'POST', '/api/rest/saved-filter', {
      Recurso: 'person',
      Nombre: 'Trabajadores activos',
      Filtro,
      IdUsuario: 'ADMIN',
    });
    expect(saved.status).toBe(201);
    // The owner comes from the session, whatever the body says.
    expect(saved.body.IdUsuario).toBe('SOLICITANTE');

    // Another browser: a new sign-in of the same user finds it.
    const again = await signIn(t.app, 'SOLICITANTE');
    const mine = await as(again, 'GET', listUrl('saved-filter', { filter: { Recurso: 'person' } }));
    expect(mine.status).toBe(200);
    expect(mine.body.map((f: { Nombre: string }) => f.Nombre)).toEqual(['Trabajadores activos']);
    expect(JSON.parse(mine.body[0].Filtro)).toEqual(JSON.parse(Filtro));

    // Another user neither sees it nor reaches it.
    const admin = await signIn(t.app, 'ADMIN');
    expect((await as(admin, 'GET', listUrl('saved-filter'))).body).toEqual([]);
    expect((await as(admin, 'GET', `/api/rest/saved-filter/${saved.body.id}`)).status).toBe(404);
    expect((await as(admin, 'DELETE', `/api/rest/saved-filter/${saved.body.id}`)).status).toBe(404);

    // Names are unique per user and list.
    const twice = await as(again, 'POST', '/api/rest/saved-filter', {
      Recurso: 'person',
      Nombre: 'Trabajadores activos',
      Filtro,
    });
    expect(twice.status).toBe(409);
    expect((await as(again, 'DELETE', `/api/rest/saved-filter/${saved.body.id}`)).status).toBe(200);
  });
});
