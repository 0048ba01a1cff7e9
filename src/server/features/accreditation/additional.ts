import { type AdditionalDatum, additionalProblem } from '../../../shared/additional-data.js';
import type { FieldProblem } from '../../../shared/validation.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { checkInput } from '../../plugins/input.js';
import type { Registry } from '../../registry.js';
import type { Stored } from './engine/engine.js';

/** A datum as the request form shows it: the client's definition and the request's value. */
export type AdditionalValue = AdditionalDatum & { Orden: number; Valor: string | null };

const FIELD = 'DatosAdicionales';

/** The sent values, by datum: a JSON string (as a multipart form sends it) or an array of { IdDatoAdicional, Valor }. */
function parseSent(raw: unknown): Map<number, string> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
    checkInput(value, 'body');
  }
  const items = Array.isArray(value) && value.length <= 200 ? value : undefined;
  if (!items?.every((i) => i && typeof i === 'object' && Number.isInteger(i.IdDatoAdicional)))
    throw new ApiError('VALIDATION_FAILED', { fields: { [FIELD]: { messageKey: 'validation.invalid' } } });
  return new Map(items.map((i) => [Number(i.IdDatoAdicional), i.Valor == null ? '' : String(i.Valor)]));
}

/**
 * The client's additional data of a request (Administration > Additional data): the active data of
 * the request's entity, with the request's values; saved with the request, checked by type and
 * length (src/shared/additional-data.ts), and the mandatory ones required before it is sent.
 */
export class AdditionalData {
  constructor(private readonly registry: Registry) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  /** The active data of the request's entity, in their order, with the request's values. */
  async of(
    db: Db,
    request: Pick<Stored, 'IdSolicitud' | 'IdCliente' | 'IdEntidad'>,
  ): Promise<AdditionalValue[]> {
    const rows = (await db
      .selectFrom(`${this.table('additional-data')} as d`)
      .leftJoin(`${this.table('request-additional')} as v`, (join) =>
        join
          .onRef('v.IdDatoAdicional', '=', 'd.IdDatoAdicional')
          .on('v.IdSolicitud', '=', request.IdSolicitud),
      )
      .select([
        'd.IdDatoAdicional',
        'd.Dato',
        'd.TipoDato',
        'd.Longitud',
        'd.Obligatorio',
        'd.Orden',
        'v.Valor',
      ])
      .where('d.IdCliente', '=', request.IdCliente)
      .where('d.IdEntidad', '=', request.IdEntidad)
      .where('d.Activo', '=', 'S')
      .orderBy('d.Orden')
      .orderBy('d.IdDatoAdicional')
      .execute()) as AdditionalValue[];
    return rows.map((r) => ({ ...r, IdDatoAdicional: Number(r.IdDatoAdicional), Orden: Number(r.Orden) }));
  }

  /** Keeps the values sent (when any), each checked; a datum not of the request's entity is refused. */
  async save(trx: Db, request: Stored, sent: unknown): Promise<void> {
    if (sent === undefined || sent === null || sent === '') return;
    const values = parseSent(sent);
    const data = await this.of(trx, request);
    const problems: Record<string, FieldProblem> = {};
    for (const [id, value] of values) {
      const datum = data.find((d) => d.IdDatoAdicional === id);
      const problem = datum ? additionalProblem(datum, value) : { messageKey: 'validation.invalid' };
      if (problem) problems[`${FIELD}.${id}`] = problem;
    }
    if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
    const table = this.table('request-additional');
    await trx
      .deleteFrom(table)
      .where('IdSolicitud', '=', request.IdSolicitud)
      .where('IdDatoAdicional', 'in', [...values.keys()])
      .execute();
    const kept = [...values].filter(([, value]) => value.trim() !== '');
    if (kept.length)
      await trx
        .insertInto(table)
        .values(
          kept.map(([id, value]) => ({
            IdCliente: request.IdCliente,
            IdSolicitud: request.IdSolicitud,
            IdDatoAdicional: id,
            Valor: value.trim(),
          })),
        )
        .execute();
  }

  /** The mandatory data still without a value, as a sending's refusal names them. */
  async missing(db: Db, request: Stored): Promise<Record<string, FieldProblem>> {
    const problems: Record<string, FieldProblem> = {};
    for (const datum of await this.of(db, request)) {
      const problem = additionalProblem(datum, datum.Valor, true);
      if (problem) problems[`${FIELD}.${datum.IdDatoAdicional}`] = problem;
    }
    return problems;
  }
}
