import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AllowList,
  applyPayload,
  cameraReading,
  decideOffline,
  indexList,
  listFreshness,
  needsDriver,
  type Payload,
  payloadGenuine,
  type Reading,
  readingOf,
} from '../../src/client/garita/offline.js';
import { type BadgeClaims, claimsBytes, tokenOf, verifyingKey } from '../../src/shared/badge-token.js';

const pair = generateKeyPairSync('ed25519', {
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const other = generateKeyPairSync('ed25519', {
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const signed = (bytes: Uint8Array, privateKey = pair.privateKey) =>
  new Uint8Array(sign(null, bytes, createPrivateKey(privateKey)));
const token = (claims: Partial<BadgeClaims>, privateKey = pair.privateKey) => {
  const full: BadgeClaims = {
    IdCliente: 1,
    IdDivision: 1,
    IdCredencial: 10,
    Numero: 'C-0001',
    Titular: 'P:7',
    Hasta: '2099-12-31',
    ...claims,
  };
  return tokenOf(full, signed(claimsBytes(full), privateKey));
};

const NOW = new Date('2026-11-27T15:00:00Z'); // 10:00 in Lima, a Friday
const head = {
  puntoControl: 1,
  version: 3,
  generado: '2026-11-27T14:00:00.000Z',
  zonaHoraria: 'America/Lima',
  cliente: 1,
  division: 1,
  descripcion: 'GARITA PRINCIPAL',
  avisoHoras: 24,
  limiteHoras: 72,
  puertas: [
    {
      IdPuerta: 1,
      Descripcion: 'ENTRADA',
      IdDivision: 1,
      IdZona: 1,
      Sentido: 'E' as const,
      Activo: 'S' as const,
    },
    {
      IdPuerta: 2,
      Descripcion: 'SALIDA',
      IdDivision: 1,
      IdZona: 1,
      Sentido: 'S' as const,
      Activo: 'S' as const,
    },
  ],
  denegados: [
    {
      Titular: 'P:9',
      Nombre: 'QUISPE, ANA',
      Documento: '40000009',
      Credenciales: ['C-0009'],
      Estado: 'T' as const,
    },
    {
      Titular: 'V:4',
      Nombre: 'BXR-204',
      Documento: null,
      Placa: 'BXR-204',
      Credenciales: ['TV-0004'],
      Estado: 'S' as const,
    },
  ],
};
const allDay = [1, 2, 3, 4, 5, 6, 7].map((Dia) => ({ Dia, HoraInicio: '00:00', HoraFin: '23:59' }));
const worker = {
  Titular: 'P:7',
  Nombre: 'ROJAS, LUIS',
  Credenciales: ['C-0001'],
  Inactivas: ['C-0000'],
  Documento: '40000007',
  Placa: null,
  Desde: '2026-01-01',
  Hasta: '2026-12-31',
  Puertas: [
    { IdPuerta: 1, Intervalos: allDay },
    { IdPuerta: 2, Intervalos: allDay },
  ],
};
const dayShift = {
  ...worker,
  Titular: 'P:8',
  Nombre: 'PAZ, EVA',
  Credenciales: ['C-0008'],
  Inactivas: undefined,
  Documento: '40000008',
  Puertas: [{ IdPuerta: 1, Intervalos: [{ Dia: 5, HoraInicio: '06:00', HoraFin: '09:00' }] }],
};

const truck = {
  ...worker,
  Titular: 'V:3',
  Nombre: 'AHK-852',
  Credenciales: ['TV-0003'],
  Inactivas: ['TV-0002'],
  Documento: null,
  Placa: 'AHK-852',
};

describe('the gate app decides offline with the server decision', () => {
  let key: CryptoKey;
  let list: AllowList;
  beforeAll(async () => {
    key = await verifyingKey(pair.publicKey);
    list = applyPayload(undefined, {
      ...head,
      completo: true,
      entradas: [worker, dayShift, truck],
    }) as AllowList;
  });
  const judge = (
    text: string,
    direction: 'E' | 'S' = 'E',
    at = NOW,
    held = list,
    config?: Parameters<typeof readingOf>[1],
  ) =>
    decideOffline(
      indexList(held),
      readingOf(text, config) ?? { kind: 'document', Documento: text },
      direction,
      at,
      key,
    );

  it('verifies the signature of the list it received', async () => {
    const payload = JSON.stringify({ ...head, completo: true, entradas: [worker] });
    const signature = Buffer.from(signed(new TextEncoder().encode(payload))).toString('base64');
    expect(await payloadGenuine(payload, signature, key)).toBe(true);
    expect(await payloadGenuine(payload.replace('ROJAS', 'RAMOS'), signature, key)).toBe(false);
    const foreign = Buffer.from(signed(new TextEncoder().encode(payload), other.privateKey)).toString(
      'base64',
    );
    expect(await payloadGenuine(payload, foreign, key)).toBe(false);
    expect(await payloadGenuine(payload, 'not base64!', key)).toBe(false);
  });

  it('lets a vehicle through by its windscreen card or its typed plate, and turns away its old card and a suspended one', async () => {
    const card = token({ Titular: 'V:3', Numero: 'TV-0003', IdCredencial: 30 });
    expect(await judge(card)).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      name: 'AHK-852',
      marking: { Credencial: 'TV-0003' },
    });
    expect(await judge('ahk-852')).toMatchObject({ allow: true, marking: { Placa: 'AHK-852' } });
    // A card of the vehicle's number signed for a person is no card of the vehicle's.
    expect(await judge(token({ Titular: 'P:3', Numero: 'TV-0003' }))).toMatchObject({
      allow: false,
      reason: 'UNKNOWN',
    });
    expect(await judge(token({ Titular: 'V:3', Numero: 'TV-0002' }))).toMatchObject({
      allow: false,
      reason: 'CREDENTIAL_INACTIVE',
    });
    expect(await judge('BXR-204')).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_SUSPENDED',
      name: 'BXR-204',
      marking: { Placa: 'BXR-204' },
    });
    expect(await judge(token({ Titular: 'V:4', Numero: 'TV-0004' }))).toMatchObject({
      allow: false,
      reason: 'ACCREDITATION_SUSPENDED',
    });
  });

  it('allows an accredited badge and document, with the name and the direction door', async () => {
    expect(await judge(token({}))).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      name: 'ROJAS, LUIS',
      marking: { Credencial: 'C-0001' },
    });
    expect(await judge('40000007', 'S')).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      marking: { Documento: '40000007' },
    });
    expect(await judge(token({ Numero: 'C-0008', Titular: 'P:8' }))).toMatchObject({
      allow: false,
      reason: 'OUTSIDE_SCHEDULE',
      params: { time: '10:00' },
    });
  });

  it('denies a demobilised worker, an inactive card and an unknown one with their reasons', async () => {
    expect(await judge(token({ Numero: 'C-0009', Titular: 'P:9' }))).toMatchObject({
      allow: false,
      reason: 'CREDENTIAL_INACTIVE',
      name: 'QUISPE, ANA',
    });
    expect(await judge('40000009')).toMatchObject({ allow: false, reason: 'ACCREDITATION_TERMINATED' });
    expect(await judge(token({ Numero: 'C-0000' }))).toMatchObject({
      allow: false,
      reason: 'CREDENTIAL_INACTIVE',
    });
    expect(await judge('12345678')).toMatchObject({ allow: false, reason: 'UNKNOWN' });
    // An expired badge (its signed end date) and a card under another holder's name.
    expect(await judge(token({ Hasta: '2026-11-01' }))).toMatchObject({ reason: 'CREDENTIAL_EXPIRED' });
    expect(await judge(token({ Titular: 'P:8' }))).toMatchObject({ allow: false, reason: 'UNKNOWN' });
  });

  it('denies a forged, altered or other client token, each with its own reason', async () => {
    expect(await judge(token({}, other.privateKey))).toMatchObject({ allow: false, reason: 'TOKEN_FORGED' });
    const genuine = token({});
    const [prefix, body, signature] = genuine.split('.');
    const altered = Buffer.from(body, 'base64url').toString().replace('C-0001', 'C-0008');
    expect(await judge(`${prefix}.${Buffer.from(altered).toString('base64url')}.${signature}`)).toMatchObject(
      {
        reason: 'TOKEN_FORGED',
      },
    );
    expect(await judge('AC1.garbage')).toMatchObject({ allow: false, reason: 'TOKEN_MALFORMED' });
    expect(await judge(token({ IdCliente: 2 }))).toMatchObject({
      allow: false,
      reason: 'TOKEN_OTHER_CLIENT',
    });
  });

  it('denies past the day the first mandatory requirement expires, naming it', async () => {
    const withRequirement = { ...worker, Requisito: { Nombre: 'SCTR SALUD', Vence: '2026-11-27' } };
    const held = applyPayload(undefined, {
      ...head,
      completo: true,
      entradas: [withRequirement],
    }) as AllowList;
    expect(await judge(token({}), 'E', NOW, held)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    expect(await judge(token({}), 'E', new Date('2026-11-28T15:00:00Z'), held)).toMatchObject({
      allow: false,
      reason: 'REQUIREMENT_EXPIRED',
      params: { requirement: 'SCTR SALUD', date: '2026-11-27' },
    });
  });

  it('asks for the driver of a vehicle whose type needs an internal licence, and judges with the licences the list carries', async () => {
    const haul = { ...truck, LicenciaInterna: { IdTipoVehiculo: 9, Tipo: 'CAMIÓN MINERO' } };
    const licensed = { ...worker, Licencias: [{ IdTipoVehiculo: 9, Vence: '2026-11-27' }] };
    const stranger = { ...dayShift, Licencias: [{ IdTipoVehiculo: 3, Vence: '2027-01-01' }] };
    const held = applyPayload(undefined, {
      ...head,
      completo: true,
      entradas: [haul, licensed, stranger],
    }) as AllowList;
    const indexed = indexList(held);
    const plate = readingOf('AHK-852') as Reading;
    expect(await needsDriver(indexed, plate, 'E', key)).toBe('AHK-852');
    expect(await needsDriver(indexed, plate, 'S', key)).toBeUndefined();
    expect(await needsDriver(indexed, readingOf('40000007') as Reading, 'E', key)).toBeUndefined();
    const decide = (driver?: string, at = NOW) =>
      decideOffline(indexed, plate, 'E', at, key, driver ? readingOf(driver) : undefined);
    expect(await decide()).toMatchObject({
      allow: false,
      reason: 'INTERNAL_LICENCE_MISSING',
      params: { driver: '—' },
    });
    expect(await decide('40000007')).toMatchObject({
      allow: true,
      reason: 'ALLOWED',
      marking: { Placa: 'AHK-852', Conductor: '40000007' },
    });
    // The driver's badge works as their document; a licence of another type, or past its day, does not.
    expect(await decide(token({}))).toMatchObject({ allow: true });
    expect(await decide('40000008')).toMatchObject({
      allow: false,
      reason: 'INTERNAL_LICENCE_MISSING',
      params: { type: 'CAMIÓN MINERO', driver: 'PAZ, EVA' },
    });
    expect(await decide('40000007', new Date('2026-11-28T15:00:00Z'))).toMatchObject({ allow: false });
  });

  it('reads a scanned code as the equipment’s reading configuration says: the part it keeps, named as it says', async () => {
    const wiegand = { TipoLectura: 'T', Formato: 'WIEGAND34', PosicionInicio: 2, LongitudDato: 7 } as const;
    expect(readingOf('00TV-0003FF', wiegand)).toEqual({ kind: 'card', Numero: 'TV-0003' });
    expect(await judge('00TV-0003FF', 'E', NOW, list, wiegand)).toMatchObject({
      allow: true,
      name: 'AHK-852',
      marking: { Credencial: 'TV-0003' },
    });
    const barcode = { TipoLectura: 'D', Formato: 'PDF417', PosicionInicio: 1, LongitudDato: 8 } as const;
    expect(readingOf('@40000008<<PER', barcode)).toEqual({ kind: 'document', Documento: '40000008' });
    const plate = { TipoLectura: 'P', Formato: 'ANPR', PosicionInicio: 0, LongitudDato: null } as const;
    expect(readingOf(' ahk 852 ', plate)).toEqual({ kind: 'document', Documento: 'AHK852' });
    // A signed badge is a badge whatever the configuration; nothing where it looks: no reading.
    expect(readingOf(token({}), wiegand)?.kind).toBe('token');
    expect(readingOf('00', wiegand)).toBeUndefined();
    // A phone's camera honours a document or plate reader's configuration, not a card reader's.
    expect(cameraReading(wiegand)).toBeUndefined();
    expect(cameraReading(barcode)).toBe(barcode);
  });

  it('denies a vehicle past the day its blocking maintenance falls due, naming it, and lets it out', async () => {
    const serviced = { ...truck, Mantenimiento: { Nombre: 'PREVENTIVO', Vence: '2026-11-27' } };
    const held = applyPayload(undefined, { ...head, completo: true, entradas: [serviced] }) as AllowList;
    expect(await judge('AHK-852', 'E', NOW, held)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    const later = new Date('2026-11-28T15:00:00Z');
    expect(await judge('AHK-852', 'E', later, held)).toMatchObject({
      allow: false,
      reason: 'MAINTENANCE_OVERDUE',
      params: { type: 'PREVENTIVO', date: '2026-11-27' },
    });
    expect(await judge('AHK-852', 'S', later, held)).toMatchObject({
      allow: true,
      reason: 'MAINTENANCE_OVERDUE',
    });
  });

  it('denies at a door whose course the worker lacks or holds no more, naming it, and lets them out', async () => {
    const course = { Tipo: 'induction' as const, Id: 4, Nombre: 'ESPACIOS CONFINADOS' };
    const withCourse = (Vence?: string) => ({
      ...worker,
      Puertas: worker.Puertas.map((d) => ({ ...d, Requiere: [Vence ? { ...course, Vence } : course] })),
    });
    const listOf = (entry: ReturnType<typeof withCourse>) =>
      applyPayload(undefined, { ...head, completo: true, entradas: [entry] }) as AllowList;
    const held = listOf(withCourse('2026-11-27'));
    expect(await judge(token({}), 'E', NOW, held)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    const missing = { allow: false, reason: 'INDUCTION_MISSING', params: { name: 'ESPACIOS CONFINADOS' } };
    expect(await judge(token({}), 'E', new Date('2026-11-28T15:00:00Z'), held)).toMatchObject(missing);
    // Without it: the course is named, not a want of access; an exit lets the worker out.
    const lacking = listOf(withCourse());
    expect(await judge('40000007', 'E', NOW, lacking)).toMatchObject(missing);
    expect(await judge('40000007', 'S', NOW, lacking)).toMatchObject({
      allow: true,
      reason: 'INDUCTION_MISSING',
      lenientExit: true,
    });
  });

  it('warns on an old list and denies everyone past the limit (fail closed)', async () => {
    const later = (hours: number) => new Date(new Date(head.generado).getTime() + hours * 3_600_000);
    expect(listFreshness(list, later(1))).toBe('fresh');
    expect(listFreshness(list, later(25))).toBe('old');
    expect(listFreshness(list, later(73))).toBe('expired');
    expect(await judge(token({}), 'E', later(73))).toMatchObject({
      allow: false,
      reason: 'LIST_TOO_OLD',
      params: { hours: 72 },
      name: 'ROJAS, LUIS',
    });
  });

  it('merges a diff into the version it follows, and refuses one that does not', () => {
    const diff: Payload = {
      ...head,
      version: 4,
      completo: false,
      desde: 3,
      cambios: [{ ...worker, Nombre: 'ROJAS, LUIS ALBERTO' }],
      retirados: ['P:8'],
    };
    const next = applyPayload(list, diff) as AllowList;
    expect(next.version).toBe(4);
    expect(next.entradas.map((e) => [e.Titular, e.Nombre])).toEqual([
      ['P:7', 'ROJAS, LUIS ALBERTO'],
      ['V:3', 'AHK-852'],
    ]);
    expect(applyPayload(list, { ...diff, desde: 2 })).toBeUndefined();
    expect(applyPayload(undefined, diff)).toBeUndefined();
  });
});
