import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decideMealOffline,
  prunedCounts,
  type ReaderData,
  type ReaderRoom,
  servedKey,
} from '../../src/client/garita/dining.js';
import { readingOf } from '../../src/client/garita/offline.js';
import { type BadgeClaims, claimsBytes, tokenOf, verifyingKey } from '../../src/shared/badge-token.js';

const keys = () =>
  generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
const pair = keys();
const other = keys();
const token = (claims: Partial<BadgeClaims> = {}, privateKey = pair.privateKey) => {
  const full: BadgeClaims = {
    IdCliente: 1,
    IdDivision: 1,
    IdCredencial: 10,
    Numero: 'C-0001',
    Titular: 'P:7',
    Hasta: '2099-12-31',
    ...claims,
  };
  return tokenOf(full, new Uint8Array(sign(null, claimsBytes(full), createPrivateKey(privateKey))));
};
const read = (text: string) => {
  const reading = readingOf(text);
  if (!reading) throw new Error(`not a reading: ${text}`);
  return reading;
};

const room: ReaderRoom = {
  IdComedor: 4,
  Descripcion: 'COMEDOR CENTRAL',
  IdCliente: 1,
  IdDivision: 1,
  zonaHoraria: 'America/Lima',
  activo: true,
  servicios: [
    {
      IdServicio: 1,
      Descripcion: 'DESAYUNO',
      Orden: 1,
      HoraInicio: '05:00',
      HoraFin: '09:00',
      NumeroConsumos: 1,
    },
    {
      IdServicio: 2,
      Descripcion: 'ALMUERZO',
      Orden: 2,
      HoraInicio: '11:30',
      HoraFin: '15:00',
      NumeroConsumos: 2,
    },
    // The night meal crosses midnight: its early hours belong to the day it opened.
    {
      IdServicio: 4,
      Descripcion: 'CENA NOCTURNA',
      Orden: 4,
      HoraInicio: '23:30',
      HoraFin: '02:00',
      NumeroConsumos: 1,
    },
  ],
};
// 12:00 in Lima (UTC-5), Friday 27 November 2026.
const LUNCH = new Date('2026-11-27T17:00:00Z');
const data: ReaderData = { rooms: [room], fetchedAt: '2026-11-27T12:00:00Z' };

describe('the gate app judges a meal with no network', () => {
  let key: CryptoKey;
  beforeAll(async () => {
    key = await verifyingKey(pair.publicKey);
  });
  const judge = (text: string, at = LUNCH, counts: Record<string, number> = {}, held = data, r = room) =>
    decideMealOffline(held, r, read(text), at, key, counts);

  it('serves a genuine badge of the division at an open service, counted under its card, service and day', async () => {
    const { answer, counted } = await judge(token());
    expect(answer).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      messageKey: 'dining.reasons.ALLOWED',
      name: 'C-0001',
      service: { IdServicio: 2, Descripcion: 'ALMUERZO', Fecha: '2026-11-27' },
      used: { used: 1, max: 2 },
      offline: true,
    });
    expect(counted).toBe(servedKey('C-0001', 2, '2026-11-27'));
  });

  it("refuses once the service's consumption number is used up on this device", async () => {
    const key2 = servedKey('C-0001', 2, '2026-11-27');
    expect((await judge(token(), LUNCH, { [key2]: 1 })).answer.allow).toBe(true);
    const { answer, counted } = await judge(token(), LUNCH, { [key2]: 2 });
    expect(answer).toMatchObject({
      allow: false,
      reason: 'ALREADY_SERVED',
      params: { service: 'ALMUERZO', used: 2, max: 2 },
    });
    expect(counted).toBeUndefined();
    // Another card, or the same card at another service, is counted apart.
    expect((await judge(token({ Numero: 'C-0002' }), LUNCH, { [key2]: 2 })).answer.allow).toBe(true);
  });

  it('gives the early hours of a night meal to the day it opened', async () => {
    // 01:00 in Lima on Saturday: the night meal of Friday.
    const { answer, counted } = await judge(token(), new Date('2026-11-28T06:00:00Z'));
    expect(answer.service).toEqual({ IdServicio: 4, Descripcion: 'CENA NOCTURNA', Fecha: '2026-11-27' });
    expect(counted).toBe(servedKey('C-0001', 4, '2026-11-27'));
  });

  it.each([
    [
      'no service at that hour',
      () => judge(token(), new Date('2026-11-27T15:00:00Z')),
      'NO_SERVICE',
      { time: '10:00' },
    ],
    ['a badge of another division', () => judge(token({ IdDivision: 2 })), 'NOT_ACCREDITED', undefined],
    ['a badge of another client', () => judge(token({ IdCliente: 9 })), 'TOKEN_OTHER_CLIENT', undefined],
    [
      'a badge past its date',
      () => judge(token({ Hasta: '2026-11-26' })),
      'CREDENTIAL_EXPIRED',
      { to: '2026-11-26' },
    ],
    ['a forged badge', () => judge(token({}, other.privateKey)), 'TOKEN_FORGED', undefined],
    [
      'a document (only the server can check it)',
      () => judge('40000000'),
      'DOCUMENT_NEEDS_NETWORK',
      undefined,
    ],
    [
      'a room out of service',
      () => judge(token(), LUNCH, {}, data, { ...room, activo: false }),
      'ROOM_INACTIVE',
      undefined,
    ],
    [
      'rooms not renewed for more than 24 h (fail closed)',
      () => judge(token(), LUNCH, {}, { ...data, fetchedAt: '2026-11-26T16:59:00Z' }),
      'READER_DATA_OLD',
      { hours: 24 },
    ],
  ])('refuses %s', async (_, run, reason, params) => {
    const { answer, counted } = await run();
    expect(answer.allow).toBe(false);
    expect(answer.reason).toBe(reason);
    if (params) expect(answer.params).toEqual(params);
    expect(answer.messageKey).toBe(
      ['DOCUMENT_NEEDS_NETWORK', 'READER_DATA_OLD', 'TOKEN_OTHER_CLIENT', 'TOKEN_FORGED'].includes(reason)
        ? `gateApp.reasons.${reason}`
        : reason === 'NOT_ACCREDITED' || reason === 'CREDENTIAL_EXPIRED'
          ? `gate.reasons.${reason}`
          : `dining.reasons.${reason}`,
    );
    expect(counted).toBeUndefined();
  });

  it("keeps the counts of yesterday's sittings and after", () => {
    const counts = {
      [servedKey('C-1', 1, '2026-11-25')]: 1,
      [servedKey('C-1', 4, '2026-11-26')]: 1,
      [servedKey('C-1', 2, '2026-11-27')]: 2,
    };
    expect(Object.keys(prunedCounts(counts, '2026-11-27'))).toEqual([
      servedKey('C-1', 4, '2026-11-26'),
      servedKey('C-1', 2, '2026-11-27'),
    ]);
  });
});
