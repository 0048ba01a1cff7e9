import { sql } from 'kysely';
import { type Credential, markingClock } from '../../../shared/access/decision.js';
import {
  type Diner,
  type DiningSite,
  decideMeal,
  type MealDecision,
  type MealPresented,
  type MealReason,
  mealCost,
  mealMessageKey,
  type Sitting,
  sittingOf,
} from '../../../shared/dining.js';
import type { Db } from '../../db/connection.js';
import { GroupCommit } from '../../db/group-commit.js';
import { t } from '../../i18n.js';
import type { DinerCard, DiningTables, LoadedRoom } from './loader.js';
import { countMeal } from './tables.js';

/** One presentation at a dining room's reader, or a meal a supervisor registers by hand. */
export interface MealPresentation {
  room: LoadedRoom;
  presented: MealPresented;
  /** A badge's token refused before the decision (not genuine, or another client's). */
  refusedToken?: Extract<MealReason, `TOKEN_${string}`>;
  /** The corrected instant. */
  at: Date;
  deviceAt?: Date;
  deviceMarkId?: string;
  doubtful: boolean;
  online: boolean;
  /** What an offline reader already did (P served, D refused); recorded over the server's view. */
  deviceResult?: 'P' | 'D';
  /** E a reader (an equipment), M a supervisor by hand. */
  origin: 'E' | 'M';
  equipmentId?: number;
  /** Who writes it: EQUIPO:<id> or the supervisor's user. */
  userId: string;
  manual?: { IdServicio: number; day: string; observation: string };
}

/** The presentation's person and the room's configuration, read before the transaction. */
export interface MealLoaded {
  credential?: Credential;
  diner?: Diner;
  card?: DinerCard;
}

export interface MealRecorded {
  decision: MealDecision;
  /** What the stored row says happened: P served, D refused. */
  result: 'P' | 'D';
  IdConsumo?: number;
  /** The reader had sent this presentation already (same equipment and device id): its stored answer. */
  duplicate: boolean;
  card?: DinerCard;
  /** Meals of the person in the sitting, this one included when served, and the service's number. */
  used?: number;
  max?: number;
}

const codeOf = (presented: MealPresented) =>
  presented.kind === 'credential' ? presented.Numero : presented.Documento;

/**
 * In one read of the sitting's served meals (not voided): how many the room served, how many of
 * them are the person's, and the places the person's hold (a bit per place).
 */
async function sittingCounts(
  trx: Db,
  tables: DiningTables,
  roomId: number,
  personId: number | undefined,
  sitting: Sitting,
) {
  const row = await trx
    .selectFrom(tables.consumption)
    .select([
      sql<number>`count(*)`.as('served'),
      sql<number>`coalesce(sum(case when "IdPersona" = ${personId ?? -1} then 1 else 0 end), 0)`.as('used'),
      sql<number>`coalesce(sum(case when "IdPersona" = ${personId ?? -1} then 1 << "Ranura" else 0 end), 0)`.as(
        'mask',
      ),
    ])
    .where('IdComedor', '=', roomId)
    .where('Fecha', '=', sitting.day)
    .where('IdServicio', '=', sitting.service.IdServicio)
    .where('Resultado', '=', 'P')
    .where('Anulado', '=', 'N')
    .executeTakeFirst();
  const mask = Number(row?.mask ?? 0);
  const places = new Set<number>();
  for (let n = 1; n <= 10; n++) if (mask & (1 << n)) places.add(n);
  return { served: Number(row?.served ?? 0), used: Number(row?.used ?? 0), places };
}

/** The stored answer of a presentation the reader had sent already. */
async function storedAnswer(
  trx: Db,
  tables: DiningTables,
  equipmentId: number,
  deviceMarkId: string,
  card: DinerCard | undefined,
): Promise<MealRecorded | undefined> {
  const row = await trx
    .selectFrom(tables.consumption)
    .select(['IdConsumo', 'Resultado', 'CodigoMotivo'])
    .where('IdEquipo', '=', equipmentId)
    .where('IdMarcaDispositivo', '=', deviceMarkId)
    .executeTakeFirst();
  if (!row) return undefined;
  const reason = (row.CodigoMotivo ?? 'ALLOWED') as MealReason;
  return {
    decision: { allow: row.Resultado === 'P', reason, messageKey: mealMessageKey(reason) },
    result: row.Resultado as 'P' | 'D',
    IdConsumo: Number(row.IdConsumo),
    duplicate: true,
    card,
  };
}

/** The most times a meal is decided again when another writer took the place it meant to take. */
const PLACE_ATTEMPTS = 12;

/**
 * Decides one presentation and writes its consumption inside the caller's transaction: a served
 * meal takes the first free place of the service's consumption number for the person, the sitting
 * and the day; the unique key on those refuses a second writer the same place, and the meal is
 * then decided again on what that writer stored (so 20 readers at once serve exactly the number).
 * A refusal is stored too, with its reason. A presentation the reader had sent already is answered
 * as it was stored.
 */
export async function recordMeal(
  trx: Db,
  tables: DiningTables,
  p: MealPresentation,
  loaded: MealLoaded,
  site: DiningSite,
): Promise<MealRecorded> {
  const { room } = p;
  const { diner, credential, card } = loaded;
  if (p.equipmentId !== undefined && p.deviceMarkId !== undefined) {
    const stored = await storedAnswer(trx, tables, p.equipmentId, p.deviceMarkId, card);
    if (stored) return stored;
  }
  for (let attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
    const sitting = sittingOf(site.services, p.at, room.timeZone, p.manual);
    const counts = sitting
      ? await sittingCounts(trx, tables, room.IdComedor, diner?.person.IdPersona, sitting)
      : undefined;
    const mine = diner ? counts : undefined;
    const served = counts?.served ?? 0;
    const decision: MealDecision = p.refusedToken
      ? {
          allow: false,
          reason: p.refusedToken,
          messageKey: mealMessageKey(p.refusedToken),
          ...(sitting && { sitting }),
        }
      : decideMeal({
          site,
          at: p.at,
          timeZone: room.timeZone,
          presented: p.presented,
          credential,
          diner,
          used: mine?.used ?? 0,
          served,
          ...(p.manual && { manual: { IdServicio: p.manual.IdServicio, day: p.manual.day } }),
        });
    const result = p.deviceResult ?? (decision.allow ? 'P' : 'D');
    const at = decision.sitting ?? sitting;
    const service = at?.service;
    let place: number | null = null;
    if (result === 'P' && service) {
      for (let n = 1; n <= service.NumeroConsumos; n++)
        if (!mine?.places.has(n)) {
          place = n;
          break;
        }
    }
    // What a served meal costs (one an offline reader served although the server would not: costed too, it was eaten).
    const cost =
      result !== 'P' || !at
        ? undefined
        : (decision.cost ??
          (diner
            ? mealCost(at.service, site.type, diner, site.assignments, at.day)
            : {
                total: Math.round(at.service.Costo * 100),
                company: Math.round(at.service.Costo * 100),
                worker: 0,
                companyPercent: 100,
                by: 'none' as const,
              }));
    const local = markingClock(p.at, room.timeZone);
    const values = {
      IdCliente: room.IdCliente,
      IdDivision: room.IdDivision,
      IdComedor: room.IdComedor,
      IdServicio: service?.IdServicio ?? null,
      IdPersona: diner?.person.IdPersona ?? null,
      IdCompania: diner?.IdCompania ?? null,
      IdEquipo: p.equipmentId ?? null,
      Fecha: at?.day ?? local.date,
      Hora: local.time,
      FechaHora: p.at.toISOString(),
      Resultado: result,
      CodigoMotivo: decision.reason,
      Motivo: decision.allow ? null : t('es', decision.messageKey, decision.params).slice(0, 200),
      Origen: p.origin,
      TipoMarcacion: p.presented.kind === 'credential' ? 'C' : 'T',
      EnLinea: p.online ? 'S' : 'N',
      HoraDudosa: p.doubtful ? 'S' : 'N',
      IdMarcaDispositivo: p.deviceMarkId ?? null,
      FechaHoraDispositivo: p.deviceAt?.toISOString() ?? null,
      Ranura: place,
      ImporteTotal: cost?.total ?? null,
      ImporteCompania: cost?.company ?? null,
      ImporteTrabajador: cost?.worker ?? null,
      PorcentajeCompania: cost?.companyPercent ?? null,
      BaseCosto: cost ? { category: 'K', position: 'P', none: 'N' }[cost.by] : null,
      IdCategoriaCosto: cost?.IdCategoriaCosto ?? null,
      IdTipoPosicion: diner?.IdTipoPosicion ?? null,
      Anulado: 'N',
      Observacion: (p.manual?.observation ?? (diner ? null : codeOf(p.presented)))?.slice(0, 500) ?? null,
      IdUsuarioCreacion: p.userId,
      FechaCreacion: new Date().toISOString(),
    };
    const inserted = await trx
      .insertInto(tables.consumption)
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .returning('IdConsumo')
      .executeTakeFirst();
    if (inserted) {
      if (result === 'P') await countMeal(trx, values, 1);
      return {
        decision,
        result,
        IdConsumo: Number(inserted.IdConsumo),
        duplicate: false,
        card,
        ...(service && { used: (mine?.used ?? 0) + (result === 'P' ? 1 : 0), max: service.NumeroConsumos }),
      };
    }
    // Another call of the same reader stored this presentation meanwhile, or another writer took the place.
    if (p.equipmentId !== undefined && p.deviceMarkId !== undefined) {
      const stored = await storedAnswer(trx, tables, p.equipmentId, p.deviceMarkId, card);
      if (stored) return stored;
    }
  }
  throw new Error('a meal could not take a place after several attempts');
}

/** A meal waiting for the dining writer's next commit. */
export interface MealJob {
  p: MealPresentation;
  loaded: MealLoaded;
  site: DiningSite;
  abort(): boolean;
}

/**
 * The readers' meals, written in group commits: one transaction at a time in a process (on either
 * database), so the meals a sitting has served and a person's count are read by one writer; across
 * processes the unique key on the person's places holds the rule.
 */
export function mealWriter(db: Db, tables: DiningTables) {
  return new GroupCommit<MealJob, MealRecorded>(db, (trx, job) =>
    recordMeal(trx, tables, job.p, job.loaded, job.site),
  );
}
