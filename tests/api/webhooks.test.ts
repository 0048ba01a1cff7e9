import { afterAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/server/features/accreditation/events.js';
import { type RoundResult, WebhookRelay } from '../../src/server/features/webhooks/relay.js';
import { httpsTransport } from '../../src/server/services/https-post.js';
import { call, callerAs, signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { Receiver, selfSigned, signedBy } from '../support/webhooks.js';
import { world } from '../support/world.js';

const tls = selfSigned();

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  const w = world(dialect, {
    auth: { now: () => clock },
    webhooks: { ca: tls.cert },
    ready: async () => {
      await receiver.start();
      admin = callerAs(() => w.app, 'ADMIN');
      const rows = (await w
        .db()
        .selectFrom(w.table('accreditation'))
        .select(['IdAcreditacion', 'IdCliente'])
        .orderBy('IdAcreditacion')
        .limit(3)
        .execute()) as Array<{ IdAcreditacion: number; IdCliente: number }>;
      client = Number(rows[0].IdCliente);
      accreditations = rows.map((r) => Number(r.IdAcreditacion));
    },
  });
  // The test's own clock, far from the machine's: nothing may hang on the two agreeing.
  let clock = Date.parse('2026-06-01T12:00:00Z');
  const receiver = new Receiver(tls);
  let admin: ReturnType<typeof callerAs>;
  let client: number;
  let accreditations: number[];
  let endpoint: number;
  let secret: string;

  const relay = () => w.app.jobs.get('webhooks') as WebhookRelay;
  const round = () => relay().round() as Promise<RoundResult>;
  const event = (
    IdAcreditacion: number,
    Tipo: 'granted' | 'ended' | 'suspended' | 'reinstated' | 'moved' | 'extended',
  ) =>
    w
      .db()
      .transaction()
      .execute((trx) =>
        recordEvent(
          trx,
          w.registry,
          {
            IdCliente: client,
            IdAcreditacion,
            Tipo,
            Datos: { motivo: `prueba ${Tipo}` },
            at: new Date(clock).toISOString(),
            userId: 'PRUEBA',
          },
          w.app.events,
        ),
      );
  const deliveries = async (filter: Record<string, unknown> = {}) =>
    (
      await admin({
        method: 'GET',
        url: `/api/rest/webhook-delivery?filter=${encodeURIComponent(JSON.stringify(filter))}&perPage=100`,
      })
    ).body;

  afterAll(() => receiver.stop());

  it('takes only an HTTPS address, and shows a new secret once, never in a read', async () => {
    const refused = await admin({
      method: 'POST',
      url: '/api/rest/webhook-endpoint',
      payload: { Descripcion: 'ERP', Url: 'http://erp.example.com/hooks', Activo: 'S' },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Enter a full HTTPS address');
    const spanish = await admin({
      method: 'POST',
      url: '/api/rest/webhook-endpoint',
      headers: { 'accept-language': 'es' },
      payload: { Descripcion: 'ERP', Url: 'ftp://erp.example.com', Activo: 'S' },
    });
    expect(JSON.stringify(spanish.body)).toContain('Ingrese una dirección HTTPS completa');

    const made = await admin({
      method: 'POST',
      url: '/api/rest/webhook-endpoint',
      payload: { Descripcion: 'Nómina', Url: receiver.url(), Activo: 'S', Suspendida: 'N' },
    });
    expect(made.status).toBe(201);
    endpoint = made.body.id;
    // Without a secret, nothing is sent…
    await event(accreditations[0], 'reinstated');
    expect((await round()).delivered).toBe(0);
    expect(receiver.received).toHaveLength(0);

    clock += 1_000;
    const issued = await admin({ method: 'POST', url: `/api/webhooks/destinos/${endpoint}/secreto` });
    expect(issued.status).toBe(200);
    secret = issued.body.result.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = await admin({ method: 'GET', url: `/api/rest/webhook-endpoint/${endpoint}` });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(read.body.Secreto).toBeUndefined();
    expect(Date.parse(read.body.Desde)).toBe(clock);
    // …nor, once it has one, what happened before.
    await round();
    expect(receiver.received).toHaveLength(0);
    // Sealed at rest: the column holds no trace of it.
    const stored = (await w
      .db()
      .selectFrom('webhook_secret')
      .select('Secreto')
      .where('IdDestino', '=', endpoint)
      .executeTakeFirstOrThrow()) as { Secreto: string };
    expect(stored.Secreto).not.toContain(secret.slice(6));
    // Another profile may not make one.
    const requester = await signIn(w.app, 'SOLICITANTE');
    const forbidden = await call(w.app, {
      method: 'POST',
      url: `/api/webhooks/destinos/${endpoint}/secreto`,
      token: requester.accessToken,
    });
    expect(forbidden.status).toBe(403);
  });

  it('delivers each event it asks for once, signed, in order per accreditation', async () => {
    const [a, b] = accreditations;
    clock += 1_000;
    await event(a, 'granted');
    await event(b, 'suspended'); // not asked for
    await event(b, 'extended');
    await event(a, 'ended');
    const done = await round();
    expect(done.delivered).toBe(3);
    const got = receiver.at('/hooks');
    expect(got.map((r) => [r.json.accreditation.IdAcreditacion, r.json.type])).toEqual([
      [a, 'accreditation.granted'],
      [b, 'accreditation.extended'],
      [a, 'accreditation.ended'],
    ]);
    for (const r of got) {
      expect(signedBy(secret, r)).toBe(true);
      expect(signedBy('whsec_another', r)).toBe(false);
      expect(r.headers['x-acreditacion-evento']).toBe(r.json.type.replace('accreditation.', ''));
      expect(r.json.client).toBe(client);
    }
    expect(got[2].json.data).toEqual({ motivo: 'prueba ended' });
    // A second round sends nothing again.
    await round();
    expect(receiver.at('/hooks')).toHaveLength(3);
    const listed = await deliveries({ IdDestino: endpoint });
    expect(listed.map((d: { Estado: string }) => d.Estado)).toEqual(['E', 'E', 'E']);
  });

  it('retries a receiver that is down with a growing wait, keeps the order, and delivers once it is back', async () => {
    const [a] = accreditations;
    await receiver.stop();
    await event(a, 'moved');
    await event(a, 'extended');
    await round();
    let [later, first] = await deliveries({ IdDestino: endpoint, Estado: 'P' });
    expect(first.Evento).toBe('moved');
    expect(first.Intentos).toBe(1);
    expect(first.UltimoCodigo ?? null).toBeNull();
    expect(first.UltimaRespuesta).toMatch(/ECONNREFUSED/);
    expect(Date.parse(first.ProximoIntento) - clock).toBe(30_000);
    // The later event of the same accreditation waits behind it: not tried at all.
    expect(later.Intentos).toBe(0);
    // Not due yet: nothing is tried.
    await round();
    [, first] = await deliveries({ IdDestino: endpoint, Estado: 'P' });
    expect(first.Intentos).toBe(1);
    clock += 30_000;
    await round();
    [, first] = await deliveries({ IdDestino: endpoint, Estado: 'P' });
    expect(first.Intentos).toBe(2);
    expect(Date.parse(first.ProximoIntento) - clock).toBe(60_000);

    // Back up, but answering 503 at first: that counts as a failed try too.
    await receiver.start();
    receiver.status = 503;
    clock += 60_000;
    await round();
    [, first] = await deliveries({ IdDestino: endpoint, Estado: 'P' });
    expect(first.Intentos).toBe(3);
    expect(first.UltimoCodigo).toBe(503);
    expect(first.UltimaRespuesta).toBe('down for maintenance');
    receiver.status = 200;
    clock += 120_000;
    await round();
    const tail = receiver.at('/hooks').slice(-2);
    expect(tail.map((r) => r.json.type)).toEqual(['accreditation.moved', 'accreditation.extended']);
    expect(tail.every((r) => r.json.attempt >= 1 && signedBy(secret, r))).toBe(true);
    expect(await deliveries({ IdDestino: endpoint, Estado: 'P' })).toEqual([]);
  });

  it('marks a delivery failed after 24 hours, lists it with its last answer, and resends it', async () => {
    const [, b] = accreditations;
    await receiver.stop();
    await event(b, 'ended');
    const start = clock;
    for (let i = 0; i < 60; i++) {
      await round();
      const [pending] = await deliveries({ IdDestino: endpoint, Estado: 'P' });
      if (!pending) break;
      clock = Date.parse(pending.ProximoIntento);
    }
    const [failed] = await deliveries({ IdDestino: endpoint, Estado: 'F' });
    expect(failed.Evento).toBe('ended');
    expect(failed.UltimaRespuesta).toMatch(/ECONNREFUSED/);
    expect(clock - start).toBeLessThanOrEqual(24 * 3_600_000);
    expect(clock - start).toBeGreaterThan(22 * 3_600_000);
    // Waits grew and stayed within an hour: about 30 tries in the day, not thousands.
    expect(failed.Intentos).toBeGreaterThan(20);
    expect(failed.Intentos).toBeLessThan(40);

    // Resent by the administrator: pending again, delivered once the receiver is back.
    const requester = await signIn(w.app, 'SOLICITANTE');
    const forbidden = await call(w.app, {
      method: 'POST',
      url: `/api/webhooks/entregas/${failed.id}/reenviar`,
      token: requester.accessToken,
    });
    expect(forbidden.status).toBe(403);
    const resent = await admin({ method: 'POST', url: `/api/webhooks/entregas/${failed.id}/reenviar` });
    expect(resent.status).toBe(200);
    const again = await admin({ method: 'POST', url: `/api/webhooks/entregas/${failed.id}/reenviar` });
    expect(again.status).toBe(409);
    await receiver.start();
    await round();
    const last = receiver.at('/hooks').at(-1);
    expect(last?.json.type).toBe('accreditation.ended');
    expect(last?.json.accreditation.IdAcreditacion).toBe(b);
    const [delivered] = await deliveries({ IdDestino: endpoint, IdEntrega: failed.id });
    expect(delivered.Estado).toBe('E');
  });

  it('never sends one client’s events to another client’s endpoint', async () => {
    const clients = w.registry.require('client').table;
    const other = (await w
      .db()
      .insertInto(clients)
      .values({
        Cliente: `OTRA MINERA ${dialect.toUpperCase()}`,
        IdPais: 'PE',
        Correo: 'otra@example.com',
        Activo: 'S',
        InicioSesionDirectorio: 'N',
        DirectorioReclamo: 'email',
        IdUsuarioCreacion: 'PRUEBA',
        FechaCreacion: new Date(clock).toISOString(),
      })
      .returning('IdCliente')
      .executeTakeFirstOrThrow()) as { IdCliente: number };
    const theirs = (await w
      .db()
      .insertInto(w.registry.require('webhook-endpoint').table)
      .values({
        IdCliente: other.IdCliente,
        Descripcion: 'SU ERP',
        Url: receiver.url('/otro'),
        Otorgada: 'S',
        Terminada: 'S',
        Suspendida: 'S',
        Reactivada: 'S',
        Trasladada: 'S',
        Ampliada: 'S',
        Activo: 'S',
        IdUsuarioCreacion: 'PRUEBA',
        FechaCreacion: new Date(clock - 60_000).toISOString(),
      })
      .returning('IdDestino')
      .executeTakeFirstOrThrow()) as { IdDestino: number };
    await w
      .db()
      .transaction()
      .execute(async (trx) => {
        await relay().newSecret(trx, theirs.IdDestino, 'PRUEBA');
      });
    await event(accreditations[2], 'granted');
    await round();
    expect(receiver.at('/otro')).toEqual([]);
    expect(receiver.at('/hooks').at(-1)?.json.accreditation.IdAcreditacion).toBe(accreditations[2]);
    // Nor does this client's administrator see the other's endpoint.
    const listed = await admin({ method: 'GET', url: '/api/rest/webhook-endpoint?perPage=100' });
    expect(listed.body.map((e: { id: number }) => e.id)).not.toContain(theirs.IdDestino);
  });

  it('sends a given event once when two servers run their rounds at once', async () => {
    const otherServer = new WebhookRelay(
      w.t.db.database,
      w.registry,
      w.app.sealer,
      httpsTransport({ ca: tls.cert }),
      () => clock,
      'otro-servidor',
    );
    const before = receiver.at('/hooks').length;
    for (const id of accreditations) await event(id, 'extended');
    await Promise.all([round(), otherServer.round(), round(), otherServer.round()]);
    const sent = receiver.at('/hooks').slice(before);
    expect(sent.map((r) => r.json.id)).toHaveLength(3);
    expect(new Set(sent.map((r) => r.json.id)).size).toBe(3);
    expect(await deliveries({ IdDestino: endpoint, Estado: 'P' })).toEqual([]);
  });

  it('deletes an endpoint with its secret and its deliveries, in one transaction', async () => {
    expect(await w.count('webhook-delivery', { IdDestino: endpoint })).toBeGreaterThan(0);
    const removed = await admin({ method: 'DELETE', url: `/api/rest/webhook-endpoint/${endpoint}` });
    expect(removed.status).toBe(200);
    expect(await w.count('webhook-delivery', { IdDestino: endpoint })).toBe(0);
    const secrets = await w
      .db()
      .selectFrom('webhook_secret')
      .select('IdDestino')
      .where('IdDestino', '=', endpoint)
      .execute();
    expect(secrets).toEqual([]);
  });
});
