import type { FastifyInstance } from 'fastify';
import type { EntityHooks, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { pollEachClient } from '../../jobs/poller.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';

/** The job's name in the lease table. */
export const ADDENDA_JOB = 'ADENDAS';

interface Contract {
  IdContrato: number;
  IdDivision: number;
  FechaInicio: string;
  FechaFin: string;
  FechaFinOriginal: string | null;
}

const refuse = (field: string, messageKey: string, params: Record<string, string>): never => {
  throw new ApiError('VALIDATION_FAILED', {
    messageKey,
    params,
    fields: { [field]: { messageKey, params } },
  });
};

const contractOf = (db: Db, registry: Registry, id: number) =>
  db
    .selectFrom(registry.require('contract').table)
    .select(['IdContrato', 'IdDivision', 'FechaInicio', 'FechaFin', 'FechaFinOriginal'])
    .where('IdContrato', '=', id)
    .executeTakeFirst() as Promise<Contract | undefined>;

/**
 * The contract's end in force on `today`: the latest new end of its approved, active addenda whose
 * date has come, never before the end it was signed with (FechaFinOriginal; the end itself when
 * none was kept). `except`: an addendum being deleted.
 */
async function endInForce(db: Db, registry: Registry, contract: Contract, today: string, except?: number) {
  const signed = contract.FechaFinOriginal ?? contract.FechaFin;
  const latest = (await db
    .selectFrom(registry.require('addendum').table)
    .select((eb) => eb.fn.max('NuevaFechaFin').as('end'))
    .where('IdContrato', '=', contract.IdContrato)
    .where('Aprobada', '=', 'S')
    .where('Activo', '=', 'S')
    .where('FechaInicio', '<=', today)
    .where('NuevaFechaFin', 'is not', null)
    .$if(except !== undefined, (qb) => qb.where('IdAdenda', '<>', except as number))
    .executeTakeFirst()) as { end: string | null } | undefined;
  return { signed, end: latest?.end && latest.end > signed ? latest.end : signed };
}

/** Sets the contract's end to the one in force (keeping the signed end); answers whether it moved. */
export async function applyAddenda(
  db: Db,
  registry: Registry,
  contractId: number,
  now: number,
  except?: number,
): Promise<boolean> {
  const contract = await contractOf(db, registry, contractId);
  if (!contract) return false;
  const today = await divisionToday(db, registry, contract.IdDivision, now);
  const { signed, end } = await endInForce(db, registry, contract, today, except);
  if (end === contract.FechaFin && contract.FechaFinOriginal) return false;
  await db
    .updateTable(registry.require('contract').table)
    .set({ FechaFin: end, FechaFinOriginal: signed })
    .where('IdContrato', '=', contractId)
    .execute();
  return end !== contract.FechaFin;
}

/** An addendum's period lies within its contract (signed start to the end in force, or its new end). */
async function checkPeriod(db: Db, registry: Registry, data: Row, id: unknown) {
  const contract = await contractOf(db, registry, Number(data.IdContrato));
  if (!contract) return;
  const start = String(data.FechaInicio ?? '');
  const end = String(data.FechaFin ?? '');
  const last = [contract.FechaFin, String(data.NuevaFechaFin ?? '')].sort()[1];
  const params = { start: contract.FechaInicio, end: last };
  if (start < contract.FechaInicio || start > contract.FechaFin)
    refuse('FechaInicio', 'rules.outsideContract', params);
  if (end > last) refuse('FechaFin', 'rules.outsideContract', params);
  if (data.Activo === 'N') return;
  const other = (await db
    .selectFrom(registry.require('addendum').table)
    .select(['NumeroAdenda', 'FechaInicio', 'FechaFin'])
    .where('IdContrato', '=', contract.IdContrato)
    .where('Activo', '=', 'S')
    .where('FechaInicio', '<=', end)
    .where('FechaFin', '>=', start)
    .$if(id !== undefined, (qb) => qb.where('IdAdenda', '<>', Number(id)))
    .executeTakeFirst()) as Row | undefined;
  if (other)
    refuse('FechaInicio', 'rules.addendumOverlaps', {
      number: String(other.NumeroAdenda),
      start: String(other.FechaInicio),
      end: String(other.FechaFin),
    });
}

/**
 * An addendum lies within its contract and overlaps no other active one of it; once written (or
 * deleted) its contract's end in force follows, in the same transaction.
 */
export function addendumHooks(registry: Registry, now: () => number): EntityHooks {
  return {
    async beforeWrite({ db, data, existing }) {
      await checkPeriod(db, registry, data, existing?.IdAdenda);
    },
    async afterWrite({ db, row, existing }) {
      await applyAddenda(db, registry, Number(row.IdContrato), now());
      if (existing && existing.IdContrato !== row.IdContrato)
        await applyAddenda(db, registry, Number(existing.IdContrato), now());
    },
    async beforeDelete({ db, existing }) {
      await applyAddenda(db, registry, Number(existing.IdContrato), now(), Number(existing.IdAdenda));
    },
  };
}

/** Every contract with an approved extension whose date may have come: its end in force, once a day per client. */
async function applyDue(db: Db, registry: Registry, clientId: number, now: number): Promise<number> {
  const contracts = (await db
    .selectFrom(registry.require('addendum').table)
    .select('IdContrato')
    .distinct()
    .where('IdCliente', '=', clientId)
    .where('Aprobada', '=', 'S')
    .where('NuevaFechaFin', 'is not', null)
    .execute()) as Array<{ IdContrato: number }>;
  let moved = 0;
  for (const { IdContrato } of contracts) {
    if (await db.transaction().execute((trx) => applyAddenda(trx, registry, IdContrato, now))) moved++;
  }
  return moved;
}

/**
 * In the background, whichever process takes a client's lease moves the ends of its contracts whose
 * extension's date has come (an addendum approved ahead of its date takes effect on that day).
 */
export function addendaSchedule(fastify: FastifyInstance, now: () => number = Date.now): void {
  pollEachClient(
    fastify,
    ADDENDA_JOB,
    (client) => applyDue(fastify.database.db, fastify.registry, client, now()),
    'contract ends moved by addenda',
  );
}
