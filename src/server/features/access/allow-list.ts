import { createHash, sign } from 'node:crypto';
import type { AllowDoor, AllowEntry, DeniedEntry } from '../../../shared/access/allow-list.js';
import {
  type Door,
  decide,
  type Holder,
  heldUntil,
  localTime,
  type ReasonCode,
  requiredAt,
  requirementWaived,
  type SiteAccess,
} from '../../../shared/access/decision.js';
import { addDays, timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';
import type { Device } from '../../services/site/device-keys.js';
import { loadHolder, loadSite, type QualificationSource } from '../../services/site/loader.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';

const DENIED_DAYS = 90;

/** The control point's allow-list age limits (hours) when its record says nothing. */
const LIST_WARN_HOURS = 24;
const LIST_LIMIT_HOURS = 72;

/** Reasons that only depend on the hour: the holder belongs on the list with its intervals. */
const HOURLY: ReasonCode[] = ['ALLOWED', 'ALLOWED_TEMPORARY', 'OUTSIDE_SCHEDULE'];
const KEEP_VERSIONS = 20;

/**
 * The offline allow-list of a control point: everyone accredited in its division whom the gate
 * decision lets through one of its doors today, at some hour, with the schedule intervals that open
 * each door and what the door requires of the person besides (an induction, held or not: the gate
 * then refuses for its lack as the server does, rather than for want of access). Versioned: a list
 * equal to the last one served keeps its version; `since` names a version the gate holds, and the
 * answer then carries only the entries added or changed and the holders removed. The payload is
 * signed with the server's Ed25519 key.
 */
export async function allowList(
  db: Db,
  device: Device,
  controlPointId: number,
  since: number | undefined,
  qualifications: readonly QualificationSource[],
  now = Date.now(),
) {
  const doors = (await db
    .selectFrom('access_door as d')
    .innerJoin('system_division as v', 'v.IdDivision', 'd.IdDivision')
    .select([
      'd.IdPuerta',
      'd.Descripcion',
      'd.IdCliente',
      'd.IdDivision',
      'd.IdZona',
      'd.Sentido',
      'd.Activo',
      'v.IdPais',
    ])
    .where('d.IdPuntoControl', '=', controlPointId)
    .where('d.IdCliente', '=', device.IdCliente)
    .where('d.IdDivision', '=', device.IdDivision)
    .orderBy('d.IdPuerta')
    .execute()) as Array<Record<string, unknown>>;
  if (!doors.length) return undefined;
  const timeZone = timeZoneOf(String(doors[0].IdPais ?? ''));
  const site = await loadSite(db, device.IdCliente, device.IdDivision, qualifications);
  // Whether a door opens to a holder is asked without what it requires besides: that rides on the list.
  const unqualified: SiteAccess = { ...site, qualifications: [] };
  const holders = (await db
    .selectFrom('accreditation_accreditation')
    .select(['IdPersona', 'IdVehiculo'])
    .distinct()
    .where('IdCliente', '=', device.IdCliente)
    .where('IdDivision', '=', device.IdDivision)
    .where('Estado', '=', 'A')
    // A company's own accreditation (E) names no one to let through.
    .where((eb) => eb.or([eb('IdPersona', 'is not', null), eb('IdVehiculo', 'is not', null)]))
    .execute()) as Array<{ IdPersona: number | null; IdVehiculo: number | null }>;
  // Every card the holders have held of the client, read at once rather than a holder at a time.
  const held = await cardsOf(
    db,
    device.IdCliente,
    holders.map((h) => (h.IdVehiculo != null ? `V:${h.IdVehiculo}` : `P:${h.IdPersona}`)),
  );
  const licences = await internalLicences(db, device.IdCliente);
  const entries: AllowEntry[] = [];
  const at = new Date(now);
  const today = localTime(at, timeZone).date;
  for (const h of holders) {
    const isVehicle = h.IdVehiculo != null;
    const id = Number(isVehicle ? h.IdVehiculo : h.IdPersona);
    if (!id) continue;
    const titular = `${isVehicle ? 'V' : 'P'}:${id}`;
    const cards = held.get(titular) ?? [];
    const info = await (isVehicle
      ? db
          .selectFrom('administration_vehicle')
          .select(['Placa'])
          .where('IdVehiculo', '=', id)
          .executeTakeFirst()
      : db
          .selectFrom('administration_person')
          .select(['Documento', 'Apellido', 'Nombre'])
          .where('IdPersona', '=', id)
          .executeTakeFirst());
    if (!info) continue;
    const found = info as { Placa?: string; Documento?: string; Apellido?: string; Nombre?: string };
    const presented = isVehicle
      ? ({ kind: 'plate', Placa: String(found.Placa) } as const)
      : ({ kind: 'document', Documento: String(found.Documento) } as const);
    const { holder } = await loadHolder(db, device.IdCliente, device.IdDivision, presented, qualifications);
    if (!holder) continue;
    const open: AllowDoor[] = [];
    const profiles = new Set(holder.assignments.filter((a) => a.Activo === 'S').map((a) => a.IdPerfilAcceso));
    // Whether a profile opening one of its doors checks requirements (the decision skips them when none does).
    let validates = false;
    for (const row of doors) {
      const door = {
        IdPuerta: Number(row.IdPuerta),
        IdDivision: Number(row.IdDivision),
        IdZona: Number(row.IdZona),
        Sentido: row.Sentido as 'E' | 'S' | 'A',
        Activo: row.Activo as 'S' | 'N',
      };
      const direction = door.Sentido === 'S' ? 'S' : 'E';
      // A vehicle's driver is judged at the gate, with the licences the list carries.
      const unlicensed: Holder = holder.kind === 'vehicle' ? { ...holder, licenceType: undefined } : holder;
      const decision = decide({
        door,
        direction,
        at,
        timeZone,
        presented,
        holder: unlicensed,
        site: unqualified,
      });
      if (!HOURLY.includes(decision.reason)) continue;
      const opening = site.profiles.filter(
        (p) =>
          profiles.has(p.IdPerfilAcceso) &&
          p.Activo === 'S' &&
          site.groups.some(
            (g) =>
              g.Activo === 'S' && g.Puertas.includes(door.IdPuerta) && p.Grupos.includes(g.IdGrupoAcceso),
          ),
      );
      validates ||= opening.some((p) => p.ValidarRequisitos === 'S');
      const groups = site.groups.filter(
        (g) =>
          g.Activo === 'S' &&
          g.Puertas.includes(door.IdPuerta) &&
          opening.some((p) => p.Grupos.includes(g.IdGrupoAcceso)),
      );
      const intervals = site.intervals
        .filter((i) => i.Activo === 'S' && groups.some((g) => g.IdHorario === i.IdHorario))
        .map((i) => ({ Dia: i.Dia, HoraInicio: i.HoraInicio, HoraFin: i.HoraFin }))
        .sort((a, b) => a.Dia - b.Dia || a.HoraInicio.localeCompare(b.HoraInicio));
      if (intervals.length)
        open.push({ IdPuerta: door.IdPuerta, Intervalos: intervals, ...requiredHere(holder, door, site) });
    }
    if (!open.length) continue;
    const inForce = holder.accreditations.filter(
      (a) =>
        a.Estado === 'A' &&
        a.IdDivision === device.IdDivision &&
        a.FechaInicio <= today &&
        today <= a.FechaFin,
    );
    const ends = inForce.map((a) => a.FechaFin).sort();
    const starts = inForce.map((a) => a.FechaInicio).sort();
    const inactive = cards.filter((c) => c.Activo !== 'S').map((c) => String(c.Numero));
    const requirement = validates ? firstToExpire(holder, device.IdDivision, today) : undefined;
    entries.push({
      Titular: titular,
      Nombre: isVehicle ? String(found.Placa) : nameOf(found),
      Credenciales: cards.filter((c) => c.Activo === 'S').map((c) => String(c.Numero)),
      ...(inactive.length && { Inactivas: inactive }),
      ...(requirement && { Requisito: requirement }),
      ...maintenanceDue(holder),
      ...(holder.kind === 'vehicle' && holder.licenceType && { LicenciaInterna: holder.licenceType }),
      ...(!isVehicle && licences.has(id) && { Licencias: licences.get(id) }),
      Documento: isVehicle ? null : String(found.Documento),
      Placa: isVehicle ? String(found.Placa) : null,
      Desde: starts[0] ?? '',
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

  const point = (await db
    .selectFrom('access_control_point')
    .select(['Descripcion', 'AvisoListaHoras', 'LimiteListaHoras'])
    .where('IdPuntoControl', '=', controlPointId)
    .executeTakeFirst()) as
    | { Descripcion: string; AvisoListaHoras: number | null; LimiteListaHoras: number | null }
    | undefined;
  const allowedIds = new Set(entries.map((e) => e.Titular));
  const payload = JSON.stringify({
    puntoControl: controlPointId,
    version,
    generado: new Date(now).toISOString(),
    zonaHoraria: timeZone,
    cliente: device.IdCliente,
    division: device.IdDivision,
    descripcion: point?.Descripcion ?? '',
    avisoHoras: Number(point?.AvisoListaHoras ?? LIST_WARN_HOURS),
    limiteHoras: Number(point?.LimiteListaHoras ?? LIST_LIMIT_HOURS),
    puertas: doors.map((row) => ({
      IdPuerta: Number(row.IdPuerta),
      Descripcion: String(row.Descripcion ?? ''),
      IdDivision: Number(row.IdDivision),
      IdZona: Number(row.IdZona),
      Sentido: row.Sentido,
      Activo: row.Activo,
    })),
    denegados: await deniedOf(db, device, today, allowedIds),
    // How the gate app cuts and names a scanned or typed code (the equipment's reading configuration).
    lectura: device.reading ?? null,
    ...body,
  });
  const signature = sign(null, Buffer.from(payload), (await signingKeys(db)).signer).toString('base64');
  return { payload, signature, algorithm: 'Ed25519', version };
}

const nameOf = (p: { Apellido?: string; Nombre?: string }) =>
  [p.Apellido, p.Nombre].filter(Boolean).join(', ');

/** The division's holders a gate turns away by name (see DeniedEntry), not those on the list. */
async function deniedOf(db: Db, device: Device, today: string, allowed: Set<string>): Promise<DeniedEntry[]> {
  const since = addDays(today, -DENIED_DAYS);
  const ended = (column: 'IdPersona' | 'IdVehiculo') =>
    db
      .selectFrom('accreditation_accreditation as a')
      .where('a.IdCliente', '=', device.IdCliente)
      .where('a.IdDivision', '=', device.IdDivision)
      .where('a.Estado', 'in', ['S', 'T'])
      .where('a.FechaFin', '>=', since)
      .where(`a.${column}`, 'is not', null);
  const people = (await ended('IdPersona')
    .innerJoin('administration_person as p', 'p.IdPersona', 'a.IdPersona')
    .select(['a.IdPersona', 'a.Estado', 'p.Documento', 'p.Apellido', 'p.Nombre'])
    .execute()) as Array<{
    IdPersona: number;
    Estado: 'S' | 'T';
    Documento: string;
    Apellido: string;
    Nombre: string;
  }>;
  const vehicles = (await ended('IdVehiculo')
    .innerJoin('administration_vehicle as v', 'v.IdVehiculo', 'a.IdVehiculo')
    .select(['a.IdVehiculo', 'a.Estado', 'v.Placa'])
    .execute()) as Array<{ IdVehiculo: number; Estado: 'S' | 'T'; Placa: string }>;
  const denied = new Map<string, DeniedEntry>();
  const add = (entry: DeniedEntry) => {
    if (allowed.has(entry.Titular)) return;
    const known = denied.get(entry.Titular);
    // A suspension can be lifted: it is named before a termination, as the decision does.
    if (known) {
      if (entry.Estado === 'S') known.Estado = 'S';
    } else denied.set(entry.Titular, entry);
  };
  for (const row of people)
    add({
      Titular: `P:${Number(row.IdPersona)}`,
      Nombre: nameOf(row),
      Documento: row.Documento,
      Credenciales: [],
      Estado: row.Estado,
    });
  for (const row of vehicles)
    add({
      Titular: `V:${Number(row.IdVehiculo)}`,
      Nombre: row.Placa,
      Documento: null,
      Placa: row.Placa,
      Credenciales: [],
      Estado: row.Estado,
    });
  if (!denied.size) return [];
  const cards = await cardsOf(db, device.IdCliente, [...denied.keys()]);
  for (const [titular, entry] of denied)
    entry.Credenciales.push(...(cards.get(titular) ?? []).map((c) => c.Numero));
  return [...denied.values()].sort((a, b) => a.Titular.localeCompare(b.Titular));
}

/** The cards (number, active or not) of holders named P:<IdPersona> or V:<IdVehiculo>, by holder, in number order. */
async function cardsOf(
  db: Db,
  clientId: number,
  titulares: string[],
): Promise<Map<string, Array<{ Numero: string; Activo: string }>>> {
  const byHolder = new Map<string, Array<{ Numero: string; Activo: string }>>();
  for (const [prefix, column] of [
    ['P', 'IdPersona'],
    ['V', 'IdVehiculo'],
  ] as const) {
    const ids = [
      ...new Set(titulares.filter((t) => t.startsWith(`${prefix}:`)).map((t) => Number(t.slice(2)))),
    ];
    for (let i = 0; i < ids.length; i += 500) {
      const cards = (await db
        .selectFrom('identification_credential')
        .select([column, 'Numero', 'Activo'])
        .where('IdCliente', '=', clientId)
        .where(column, 'in', ids.slice(i, i + 500))
        .orderBy('Numero')
        .execute()) as Array<Record<string, unknown>>;
      for (const card of cards) {
        const titular = `${prefix}:${Number(card[column])}`;
        const list = byHolder.get(titular) ?? [];
        list.push({ Numero: String(card.Numero), Activo: String(card.Activo) });
        byHolder.set(titular, list);
      }
    }
  }
  return byHolder;
}

/** What the door requires of a person, each with the last day the holder holds it (none for a vehicle). */
function requiredHere(holder: Holder, door: Door, site: SiteAccess): Pick<AllowDoor, 'Requiere'> {
  if (holder.kind !== 'person') return {};
  const required = requiredAt(door, site).map((q) => {
    const until = heldUntil(holder, q);
    return { Tipo: q.kind, Id: q.id, Nombre: q.name, ...(until !== undefined && { Vence: until }) };
  });
  return required.length ? { Requiere: required } : {};
}

/** The client's people's active internal licences (type, last valid day), by person. */
async function internalLicences(db: Db, clientId: number) {
  const rows = (await db
    .selectFrom('administration_internal_licence')
    .select(['IdPersona', 'IdTipoVehiculo', 'FechaVencimiento'])
    .where('IdCliente', '=', clientId)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdPersona: number; IdTipoVehiculo: number; FechaVencimiento: string }>;
  const out = new Map<number, Array<{ IdTipoVehiculo: number; Vence: string }>>();
  for (const r of rows)
    out.set(Number(r.IdPersona), [
      ...(out.get(Number(r.IdPersona)) ?? []),
      { IdTipoVehiculo: Number(r.IdTipoVehiculo), Vence: String(r.FechaVencimiento).slice(0, 10) },
    ]);
  return out;
}

/** A vehicle's blocking maintenance that falls due first, for a gate offline past that day. */
function maintenanceDue(holder: Holder): Pick<AllowEntry, 'Mantenimiento'> {
  if (holder.kind !== 'vehicle') return {};
  const first = [...(holder.maintenance ?? [])].sort((a, b) => a.Vence.localeCompare(b.Vence))[0];
  return first ? { Mantenimiento: { Nombre: first.Tipo, Vence: first.Vence } } : {};
}

/**
 * The mandatory requirement that expires first, not waived today, unless the person is exempt
 * (the caller asks only when a profile opening the holder's doors checks requirements).
 */
function firstToExpire(holder: Holder, division: number, today: string): AllowEntry['Requisito'] {
  if (holder.kind === 'person' && holder.person.ValidarRequisitosAcceso !== 'S') return undefined;
  const first = holder.requirements
    .filter(
      (r) =>
        r.Obligatorio === 'S' &&
        r.FechaVencimiento != null &&
        !requirementWaived(holder, division, r.IdRequisito, today),
    )
    .sort((a, b) => String(a.FechaVencimiento).localeCompare(String(b.FechaVencimiento)))[0];
  return first?.FechaVencimiento
    ? { Nombre: first.Requisito ?? String(first.IdRequisito), Vence: first.FechaVencimiento }
    : undefined;
}
