import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { siteDate } from '../../src/shared/dates.js';
import { anotherClientAdmin, call, menuIdOf, signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const EQUIPMENT = 1; // turnstile of the south division's main gate
const TEN_MINUTES = 10 * 60_000;

describe.each(DIALECTS)('gate app enrolment on %s', (dialect) => {
  let admin: string;

  const make = (equipment = EQUIPMENT, token = admin) =>
    call(w.app, { method: 'POST', url: `/api/acceso/equipo/${equipment}/enrolamiento`, token });
  const exchange = (codigo: string, language = 'en') =>
    call(w.app, {
      method: 'POST',
      url: '/api/acceso/enrolar',
      payload: { codigo },
      headers: { 'accept-language': language },
    });
  const allowList = (key: string, point: number) =>
    call(w.app, {
      method: 'GET',
      url: `/api/acceso/listapermitidos?puntoControl=${point}`,
      headers: { authorization: `Device ${key}` },
    });

  const w = world(dialect, {
    users: { admin: { user: 'ADMIN', division: SOUTH } },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
    },
  });

  it('exchanges a code once for a device key, the equipment and its control points; the code is kept hashed', async () => {
    const made = await make();
    expect(made.status).toBe(200);
    const { code, expiresAt } = made.body.result;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const lasts = new Date(expiresAt).getTime() - Date.now();
    expect(lasts).toBeGreaterThan(TEN_MINUTES - 60_000);
    expect(lasts).toBeLessThanOrEqual(TEN_MINUTES);
    const stored = (await w.t.db.database.db
      .selectFrom('access_enrolment_code')
      .selectAll()
      .execute()) as Json[];
    expect(JSON.stringify(stored)).not.toContain(code);

    const enrolled = await exchange(code);
    expect(enrolled.status).toBe(200);
    const { key, equipment, controlPoints, publicKey } = enrolled.body.result;
    expect(key).toMatch(/^eq1\./);
    expect(equipment).toMatchObject({ IdEquipo: EQUIPMENT, Funcion: 'E' });
    expect(controlPoints.length).toBeGreaterThan(0);
    expect(publicKey).toContain('BEGIN PUBLIC KEY');
    // The key works at once for the control point's allow-list.
    const list = await allowList(key, controlPoints[0].IdPuntoControl);
    expect(list.status).toBe(200);
    expect(list.body.result.signature).toBeTruthy();
    // Each holder whose requirements the gate checks carries the first mandatory one to expire, still
    // in force today (the list holds only those the decision lets through).
    const today = siteDate('PE');
    const entries = JSON.parse(list.body.result.payload).entradas as Json[];
    const dated = entries.filter((e) => e.Requisito);
    expect(dated.length).toBeGreaterThan(0);
    for (const e of dated) {
      expect(e.Requisito.Vence >= today).toBe(true);
      expect(e.Requisito.Nombre).toMatch(/\S/);
    }

    // Sent gzipped to a client that accepts it (a browser), the same list.
    const zipped = await w.app.inject({
      method: 'GET',
      url: `/api/acceso/listapermitidos?puntoControl=${controlPoints[0].IdPuntoControl}`,
      headers: { authorization: `Device ${key}`, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const unzipped = JSON.parse(gunzipSync(zipped.rawPayload).toString());
    expect(JSON.parse(unzipped.result.payload).puntoControl).toBe(controlPoints[0].IdPuntoControl);
    expect(unzipped.result.signature).toBeTruthy();

    // Single use: a second exchange of the same code is refused, and the key stays the one issued.
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body.messageKey).toBe('gate.enrolmentUsed');
    expect((await allowList(key, controlPoints[0].IdPuntoControl)).status).toBe(200);
  });

  it('two exchanges of one code at the same time enrol one device', async () => {
    const { code } = (await make()).body.result;
    const answers = await Promise.all([exchange(code), exchange(code), exchange(code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('refuses a code after ten minutes, and a wrong one, each with its own message', async () => {
    const { code } = (await make()).body.result;
    await w.t.db.database.db
      .updateTable('access_enrolment_code')
      .set({ ExpiraEn: Date.now() - 1 })
      .where('UsadoEn', 'is', null)
      .execute();
    const late = await exchange(code, 'es');
    expect(late.status).toBe(400);
    expect(late.body.messageKey).toBe('gate.enrolmentExpired');
    expect(late.body.message).toBe(
      'El código de enrolamiento venció (dura 10 minutos): genere otro en la pantalla del equipo.',
    );
    const wrong = await exchange('AAAAAAAAAAAAAAAAAAAAAA');
    expect(wrong.status).toBe(400);
    expect(wrong.body.messageKey).toBe('gate.enrolmentUnknown');
    expect((await exchange('')).status).toBe(400);
    // An altered code (one character changed) is as wrong as any other.
    const fresh = (await make()).body.result.code as string;
    const altered = `${fresh.slice(0, -1)}${fresh.endsWith('A') ? 'B' : 'A'}`;
    expect((await exchange(altered)).body.messageKey).toBe('gate.enrolmentUnknown');
    expect((await exchange(fresh)).status).toBe(200);
  });

  it('only an administrator with the equipment grant, of its client and division, makes a code', async () => {
    const requester = (await signIn(w.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    expect((await make(EQUIPMENT, requester)).status).toBe(403);
    expect(
      (await call(w.app, { method: 'POST', url: `/api/acceso/equipo/${EQUIPMENT}/enrolamiento` })).status,
    ).toBe(401);
    // The same administrator signed into the other division: the equipment is not found (tenancy).
    const north = (await signIn(w.app, 'ADMIN', { division: NORTH })).accessToken;
    expect((await make(EQUIPMENT, north)).status).toBe(404);
    expect((await make(7)).status).toBe(404);

    // An administrator of another client, with the equipment screen, cannot reach this equipment.
    const chile = await anotherClientAdmin(w.t, [await menuIdOf(w.t, '/equipment')]);
    expect((await make(EQUIPMENT, chile)).status).toBe(404);
    expect(
      (await w.t.db.database.db.selectFrom('access_enrolment_code').select('IdUsuario').execute()).every(
        (r: Json) => r.IdUsuario === 'ADMIN',
      ),
    ).toBe(true);
  });
});
