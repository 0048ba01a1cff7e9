import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { decide, type ReasonCode } from '../../../shared/access/decision.js';
import { timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import type { Device } from './device-keys.js';
import { loadHolder, loadSite } from './loader.js';
import { ACCESS_TABLES } from './tables.js';

/** The signing key pair: made once and kept in the database (every server process shares it). */
export async function signingKeys(db: Db): Promise<{ privateKey: string; publicKey: string }> {
  const existing = await db
    .selectFrom(ACCESS_TABLES.signingKey)
    .select(['Privada', 'Publica'])
    .where('Id', '=', 1)
    .executeTakeFirst();
  if (!existing) {
    const pair = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    await db
      .insertInto(ACCESS_TABLES.signingKey)
      .values({ Id: 1, Privada: pair.privateKey, Publica: pair.publicKey })
      .onConflict((oc) => oc.column('Id').doNothing())
      .execute();
  }
  const row = (await db
    .selectFrom(ACCESS_TABLES.signingKey)
    .select(['Privada', 'Publica'])
    .where('Id', '=', 1)
    .executeTakeFirstOrThrow()) as { Privada: string; Publica: string };
  return { privateKey: row.Privada, publicKey: row.Publica };
}

/** One holder a gate may let through while offline, and where and when. */
export interface AllowEntry {
  /** P:<IdPersona> or V:<IdVehiculo>. */
  Titular: string;
  Credenciales: string[];
  Documento: string | null;
  Placa: string | null;
  /** The last day (yyyy-mm-dd, site calendar) the accreditation and access hold. */
  Hasta: string;
  /** Per door of the control point: the schedule intervals (Dia 1–7, HH:mm) that open it. */
  Puertas: Array<{
    IdPuerta: number;
    Intervalos: Array<{ Dia: number; HoraInicio: string; HoraFin: string }>;
  }>;
}

/** Reasons that only depend on the hour: the holder belongs on the list with its intervals. */
const HOURLY: ReasonCode[] = ['ALLOWED', 'ALLOWED_TEMPORARY', 'OUTSIDE_SCHEDULE'];
const KEEP_VERSIONS = 20;

/**
 * The offline allow-list of a control point: everyone accredited in its division whom the gate
 * decision lets through one of its doors today, at some hour, with the schedule intervals that open
 * each door. Versioned: a list equal to the last one served keeps its version; `since` names a
 * version the gate holds, and the answer then carries only the entries added or changed and the
 * holders removed. The payload is signed with the server's Ed25519 key.
 */
export async function allowList(
  db: Db,
  device: Device,
  controlPointId: number,
  since: number | undefined,
  now = Date.now(),
) {
  const doors = (await db
    .selectFrom('access_door as d')
    .innerJoin('system_division as v', 'v.IdDivision', 'd.IdDivision')
    .select(['d.IdPuerta', 'd.IdCliente', 'd.IdDivision', 'd.IdZona', 'd.Sentido', 'd.Activo', 'v.IdPais'])
    .where('d.IdPuntoControl', '=', controlPointId)
    .where('d.IdCliente', '=', device.IdCliente)
    .where('d.IdDivision', '=', device.IdDivision)
    .orderBy('d.IdPuerta')
    .execute()) as Array<Record<string, unknown>>;
  if (!doors.length) return undefined;
  const timeZone = timeZoneOf(String(doors[0].IdPais ?? ''));
  const site = await loadSite(db, device.IdCliente, device.IdDivision);
  const holders = (await db
    .selectFrom('accreditation_accreditation')
    .select(['IdPersona', 'IdVehiculo'])
    .distinct()
    .where('IdCliente', '=', device.IdCliente)
    .where('IdDivision', '=', device.IdDivision)
    .where('Estado', '=', 'A')
    .execute()) as Array<{ IdPersona: number | null; IdVehiculo: number | null }>;
  const entries: AllowEntry[] = [];
  const at = new Date(now);
  for (const h of holders) {
    const isVehicle = h.IdVehiculo != null;
    const id = Number(isVehicle ? h.IdVehiculo : h.IdPersona);
    if (!id) continue;
    const [info, cards] = await Promise.all([
      isVehicle
        ? db
            .selectFrom('administration_vehicle')
            .select(['Placa'])
            .where('IdVehiculo', '=', id)
            .executeTakeFirst()
        : db
            .selectFrom('administration_person')
            .select(['Documento'])
            .where('IdPersona', '=', id)
            .executeTakeFirst(),
      isVehicle
        ? Promise.resolve([])
        : db
            .selectFrom('identification_credential')
            .select('Numero')
            .where('IdCliente', '=', device.IdCliente)
            .where('IdPersona', '=', id)
            .where('Activo', '=', 'S')
            .orderBy('Numero')
            .execute(),
    ]);
    if (!info) continue;
    const found = info as { Placa?: string; Documento?: string };
    const presented = isVehicle
      ? ({ kind: 'plate', Placa: String(found.Placa) } as const)
      : ({ kind: 'document', Documento: String(found.Documento) } as const);
    const { holder } = await loadHolder(db, device.IdCliente, device.IdDivision, presented);
    if (!holder) continue;
    const open: AllowEntry['Puertas'] = [];
    for (const row of doors) {
      const door = {
        IdPuerta: Number(row.IdPuerta),
        IdDivision: Number(row.IdDivision),
        IdZona: Number(row.IdZona),
        Sentido: row.Sentido as 'E' | 'S' | 'A',
        Activo: row.Activo as 'S' | 'N',
      };
      const direction = door.Sentido === 'S' ? 'S' : 'E';
      const decision = decide({ door, direction, at, timeZone, presented, holder, site });
      if (!HOURLY.includes(decision.reason)) continue;
      const profiles = new Set(
        holder.assignments.filter((a) => a.Activo === 'S').map((a) => a.IdPerfilAcceso),
      );
      const groups = site.groups.filter(
        (g) =>
          g.Activo === 'S' &&
          g.Puertas.includes(door.IdPuerta) &&
          site.profiles.some(
            (p) => profiles.has(p.IdPerfilAcceso) && p.Activo === 'S' && p.Grupos.includes(g.IdGrupoAcceso),
          ),
      );
      const intervals = site.intervals
        .filter((i) => i.Activo === 'S' && groups.some((g) => g.IdHorario === i.IdHorario))
        .map((i) => ({ Dia: i.Dia, HoraInicio: i.HoraInicio, HoraFin: i.HoraFin }))
        .sort((a, b) => a.Dia - b.Dia || a.HoraInicio.localeCompare(b.HoraInicio));
      if (intervals.length) open.push({ IdPuerta: door.IdPuerta, Intervalos: intervals });
    }
    if (!open.length) continue;
    const ends = [...holder.accreditations.filter((a) => a.Estado === 'A').map((a) => a.FechaFin)].sort();
    entries.push({
      Titular: `${isVehicle ? 'V' : 'P'}:${id}`,
      Credenciales: cards.map((c) => String(c.Numero)),
      Documento: isVehicle ? null : String(found.Documento),
      Placa: isVehicle ? String(found.Placa) : null,
      Hasta: ends[ends.length - 1] ?? '',
      Puertas: open,
    });
  }
  entries.sort((a, b) => a.Titular.localeCompare(b.Titular));

  const content = JSON.stringify(entries);
  const print = createHash('sha256').update(content).digest('hex');
  const version = await db.transaction().execute(async (trx) => {
    const last = (await trx
      .selectFrom(ACCESS_TABLES.allowList)
      .select(['Version', 'Huella'])
      .where('IdPuntoControl', '=', controlPointId)
      .orderBy('Version', 'desc')
      .executeTakeFirst()) as { Version: number; Huella: string } | undefined;
    if (last && last.Huella === print) return Number(last.Version);
    const next = Number(last?.Version ?? 0) + 1;
    await trx
      .insertInto(ACCESS_TABLES.allowList)
      .values({
        IdPuntoControl: controlPointId,
        Version: next,
        Huella: print,
        Contenido: content,
        CreadoEn: now,
      })
      .onConflict((oc) => oc.columns(['IdPuntoControl', 'Version']).doNothing())
      .execute();
    await trx
      .deleteFrom(ACCESS_TABLES.allowList)
      .where('IdPuntoControl', '=', controlPointId)
      .where('Version', '<=', next - KEEP_VERSIONS)
      .execute();
    return next;
  });

  let body: Record<string, unknown> = { completo: true, entradas: entries };
  if (since !== undefined && since !== version) {
    const old = (await db
      .selectFrom(ACCESS_TABLES.allowList)
      .select('Contenido')
      .where('IdPuntoControl', '=', controlPointId)
      .where('Version', '=', since)
      .executeTakeFirst()) as { Contenido: string } | undefined;
    if (old) {
      const before = new Map(
        (JSON.parse(old.Contenido) as AllowEntry[]).map((e) => [e.Titular, JSON.stringify(e)]),
      );
      const now = new Set(entries.map((e) => e.Titular));
      body = {
        completo: false,
        desde: since,
        cambios: entries.filter((e) => before.get(e.Titular) !== JSON.stringify(e)),
        retirados: [...before.keys()].filter((k) => !now.has(k)),
      };
    }
  } else if (since === version) body = { completo: false, desde: since, cambios: [], retirados: [] };

  const payload = JSON.stringify({
    puntoControl: controlPointId,
    version,
    generado: new Date(now).toISOString(),
    zonaHoraria: timeZone,
    ...body,
  });
  const { privateKey } = await signingKeys(db);
  const signature = sign(null, Buffer.from(payload), createPrivateKey(privateKey)).toString('base64');
  return { payload, signature, algorithm: 'Ed25519', version };
}
