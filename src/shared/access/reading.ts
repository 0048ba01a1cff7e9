/**
 * How a device's reading becomes what was presented (System > Reading configuration): the kind of
 * reading names what it identifies (a proximity card's number, a fingerprint's enrolled number,
 * a QR code's credential: a credential; a document's barcode: a document; a plate reader: a plate),
 * and the part of the raw read kept is `LongitudDato` characters from `PosicionInicio` (0 the
 * first; all the rest when no length). Run alike by the server (a device that sends its raw
 * `Lectura`) and by the gate app (a scanned or typed code).
 */
import type { Presented } from './decision.js';

export type ReadingKind = 'T' | 'B' | 'Q' | 'D' | 'P';

/** An equipment's reading configuration, as the device and the gate app are served it. */
export interface ReadingConfig {
  TipoLectura: ReadingKind;
  Formato: string;
  PosicionInicio: number;
  LongitudDato?: number | null;
}

/** The part of the raw read the configuration keeps, trimmed. */
export function cutReading(
  raw: string,
  config: Pick<ReadingConfig, 'PosicionInicio' | 'LongitudDato'>,
): string {
  const value = raw.trim();
  const start = Math.max(0, config.PosicionInicio ?? 0);
  const end = config.LongitudDato ? start + config.LongitudDato : undefined;
  return value.slice(start, end).trim();
}

/** What a raw read presents under the configuration, or undefined when nothing is left of it. */
export function presentedByReading(raw: string, config: ReadingConfig): Presented | undefined {
  const value = cutReading(raw, config);
  if (!value) return undefined;
  if (config.TipoLectura === 'D') return { kind: 'document', Documento: value.toUpperCase() };
  if (config.TipoLectura === 'P') return { kind: 'plate', Placa: value.toUpperCase().replace(/\s+/g, '') };
  return { kind: 'credential', Numero: value };
}
