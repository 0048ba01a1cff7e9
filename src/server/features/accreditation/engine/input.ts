import type { RequestEvent } from '../../../../../workflows/request.machine.js';
import type { Row } from '../../../crud/types.js';
import { ApiError } from '../../../errors.js';
import { checkInput } from '../../../plugins/input.js';
import { INT32 } from '../../../routes/responses.js';
import type { LineInput } from '../lines.js';

/** What a request call sends: a JSON body or a multipart form's fields. */
export type Body = Record<string, unknown>;

/** The fields of `body` among `fields` that it sends. */
export const pick = (body: Body, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));

/** A caller's text as the product keeps it: trimmed, upper case, at most `max` characters. */
export const upper = (value: unknown, max = 500): string =>
  String(value ?? '')
    .trim()
    .toLocaleUpperCase('es')
    .slice(0, max);

const invalid = (field: string, messageKey = 'validation.invalid') =>
  new ApiError('VALIDATION_FAILED', { fields: { [field]: { messageKey } } });

/** The Detalle of a request: a JSON string (as the spec sends it) or an array of at most `max` lines. */
export function parseDetail(raw: unknown, max = 2000): LineInput[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid('Detalle');
    }
    // Checked as a JSON body is: an escaped NUL (\u0000) or a 1e400 inside is refused likewise.
    checkInput(value, 'body');
  }
  if (!Array.isArray(value) || value.length > max || value.some((v) => typeof v !== 'object' || v === null))
    throw invalid('Detalle');
  return value as LineInput[];
}

/** What a worker (document type and number) or a vehicle (plate) is found by, as stored; undefined if not given. */
export function holderIdentity(worker: boolean, body: Body): Row | undefined {
  if (worker)
    return body.IdTipoDocumento !== undefined && body.Documento !== undefined
      ? { IdTipoDocumento: body.IdTipoDocumento, Documento: upper(body.Documento, 1000) }
      : undefined;
  return body.Placa !== undefined ? { Placa: upper(body.Placa, 1000) } : undefined;
}

/** A PDF already in the file store, for a request line: its key and its name. */
export interface KeptFile {
  key: string;
  name: string;
}

export { idOf } from '../../../routes/ids.js';

/** A selection of at most 500 ids (one id, or an array), each a positive id; the bad ones named by index. */
export function idList(value: unknown, field: string): number[] {
  const list =
    value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value];
  if (list.length > 500) throw invalid(field);
  return list.map((v, index) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > INT32.max) throw invalid(`${field}.${index}`);
    return n;
  });
}

/** A selection that must name something, and nothing twice. */
export function selectionOf(value: unknown, field: string): number[] {
  const selected = idList(value, field);
  if (!selected.length) throw invalid(field, 'demobilisation.refusals.selectionEmpty');
  if (new Set(selected).size !== selected.length)
    throw invalid(field, 'demobilisation.refusals.selectedTwice');
  return selected;
}

/** An authoriser's decision on a whole request, as the spec's calls name it. */
export const DECISIONS: Record<string, 'APPROVE' | 'OBSERVE' | 'REJECT' | 'RETURN'> = {
  APROBAR: 'APPROVE',
  OBSERVAR: 'OBSERVE',
  RECHAZAR: 'REJECT',
  DEVOLVER: 'RETURN',
};

/**
 * The decision a body asks (Accion) among those a kind takes, and its reason (MotivoRechazo or
 * Observacion); undefined when none is asked and `required` is false.
 */
export function decisionOf(
  body: Body,
  allowed: readonly string[],
  required: boolean,
): { type: RequestEvent['type'] | undefined; reason: string } {
  const action = body.Accion === undefined || body.Accion === null ? '' : String(body.Accion);
  const reason = upper(body.MotivoRechazo ?? body.Observacion ?? '');
  if (!action && !required) return { type: undefined, reason };
  if (!allowed.includes(action) || !DECISIONS[action]) throw invalid('Accion', 'validation.enum');
  return { type: DECISIONS[action], reason };
}

/** A refusal of a selection, naming each row that stopped it (all or nothing). */
export function rowsStopped(problems: Record<string, unknown>): ApiError | undefined {
  const count = Object.keys(problems).length;
  return count
    ? new ApiError('BUSINESS_RULE', {
        messageKey: 'demobilisation.refusals.rowsStopped',
        params: { count },
        fields: problems as never,
      })
    : undefined;
}
