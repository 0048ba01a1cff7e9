import { MIME_OF } from '../../../../shared/accreditation.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { carryOver } from '../carry-over.js';
import { dataById, type ProfileDef } from '../catalogue.js';
import {
  applyValues,
  expectedLines,
  type Line,
  type LineInput,
  mergeLines,
  missingData,
  uncarry,
} from '../lines.js';
import { applyProofs, proofsFor } from '../sourced.js';
import type { RequestEngine, Stored } from './engine.js';
import { type KeptFile, upper } from './input.js';

/**
 * Rewrites a request's lines: the profile's, with what was stored and what was sent, and marks
 * the request complete or not. A mobilisation's new lines take the values its holder already
 * holds (carried over); files already kept (a bulk upload's PDFs) go on their holder's lines.
 * A worker's lines of a requirement a feature's record proves (a passed induction) are filled from
 * it and approved as by the system (sourced.ts).
 */
export async function saveLines(
  engine: RequestEngine,
  trx: Db,
  request: Stored,
  profile: ProfileDef,
  inputs: LineInput[],
  files?: ReadonlyMap<number, KeptFile>,
): Promise<{ lines: Line[]; complete: boolean }> {
  const visit = profile.IdEntidad === 'P';
  const visitors = visit ? await engine.visitors(trx, request.IdSolicitud) : [];
  const stored = await engine.lines(trx, request.IdSolicitud);
  const lines = mergeLines(
    expectedLines(profile, visit ? visitors.map((v) => v.IdVisitaPersona) : [null]),
    stored,
  );
  if (request.TipoSolicitud === 'M')
    await carryOver(
      trx,
      engine.registry,
      request,
      profile,
      lines.filter((line) => !line.IdDetalle),
    );
  // What the features' records prove (a passed induction) fills and approves its requirement's lines.
  const proofs = await proofsFor(trx, engine.registry, engine.sources, request.IdSolicitud, profile, () =>
    engine.siteToday(trx, request.IdDivision),
  );
  applyProofs(lines, profile, proofs, engine.at());
  const byDocument = new Map(visitors.map((v) => [v.Documento, v.IdVisitaPersona]));
  const problems = applyValues(lines, inputs, dataById(profile), (input) =>
    visit ? (input.IdVisitaPersona ?? byDocument.get(upper(input.Documento, 1000)) ?? -1) : null,
  );
  if (Object.keys(problems).length) throw new ApiError('VALIDATION_FAILED', { fields: problems });
  // A bulk row's files are its holder's: a worker's or vehicle's, or a visit's one visitor's.
  const holderOf = (line: Line) => line.IdVisitaPersona === null || visitors.length === 1;
  for (const line of lines) {
    const file = holderOf(line) ? files?.get(line.IdDatoEvaluar) : undefined;
    if (!file) continue;
    if (line.IdSolicitudOrigen) uncarry(line);
    line.ClaveArchivo = file.key;
    line.NombreArchivo = file.name.slice(0, 200);
    line.TipoArchivo = MIME_OF.pdf;
  }
  const table = engine.table('request-detail');
  const kept = new Set(lines.flatMap((l) => (l.IdDetalle ? [l.IdDetalle] : [])));
  const dropped = stored
    .filter((l) => l.IdDetalle && !kept.has(l.IdDetalle))
    .map((l) => l.IdDetalle as number);
  if (dropped.length) await trx.deleteFrom(table).where('IdDetalle', 'in', dropped).execute();
  const added: Row[] = [];
  for (const line of lines) {
    const { IdDetalle, ...values } = line;
    if (IdDetalle) await trx.updateTable(table).set(values).where('IdDetalle', '=', IdDetalle).execute();
    else
      added.push({
        ...values,
        IdSolicitud: request.IdSolicitud,
        IdCliente: request.IdCliente,
        IdUsuarioCreacion: 'SISTEMA',
        FechaCreacion: engine.at(),
      });
  }
  // New lines in one statement a hundred at a time (in order): a request has a line per datum.
  for (let i = 0; i < added.length; i += 100)
    await trx
      .insertInto(table)
      .values(added.slice(i, i + 100))
      .execute();
  const complete = missingData(profile, lines).length === 0 && (!visit || visitors.length > 0);
  await markComplete(engine, trx, request.IdSolicitud, complete);
  return { lines: await engine.lines(trx, request.IdSolicitud), complete };
}

/** The request's completeness flag (SolicitudCompleta) as its lines now stand. */
export async function markComplete(engine: RequestEngine, trx: Db, id: number, complete: boolean) {
  await trx
    .updateTable(engine.table('request'))
    .set({ SolicitudCompleta: complete ? 'S' : 'N' })
    .where('IdSolicitud', '=', id)
    .execute();
}
