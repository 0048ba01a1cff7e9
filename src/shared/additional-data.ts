/**
 * The client's additional data of a request (Administration > Additional data): each datum's value
 * checked against its type (N number, T text, F date, L an item of a list, kept as text) and length,
 * alike in the request form and on the server.
 */
import type { FieldProblem } from './validation.js';

export interface AdditionalDatum {
  IdDatoAdicional: number;
  Dato: string;
  TipoDato: 'N' | 'T' | 'F' | 'L';
  Longitud?: number | null;
  Obligatorio: 'S' | 'N';
}

const isDate = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** What is wrong with a datum's value, or undefined; an empty value is only wrong when the datum is mandatory and `sending`. */
export function additionalProblem(
  datum: AdditionalDatum,
  raw: string | null | undefined,
  sending = false,
): FieldProblem | undefined {
  const value = (raw ?? '').trim();
  if (!value)
    return sending && datum.Obligatorio === 'S'
      ? { messageKey: 'validation.required', params: { field: datum.Dato } }
      : undefined;
  if (datum.TipoDato === 'N') {
    if (!/^-?\d+(\.\d+)?$/.test(value))
      return { messageKey: 'additionalData.notANumber', params: { field: datum.Dato } };
    if (datum.Longitud && value.replace(/[-.]/g, '').length > datum.Longitud)
      return { messageKey: 'additionalData.tooLong', params: { field: datum.Dato, max: datum.Longitud } };
    return undefined;
  }
  if (datum.TipoDato === 'F')
    return isDate(value)
      ? undefined
      : { messageKey: 'additionalData.notADate', params: { field: datum.Dato } };
  if (datum.Longitud && value.length > datum.Longitud)
    return { messageKey: 'additionalData.tooLong', params: { field: datum.Dato, max: datum.Longitud } };
  return undefined;
}
