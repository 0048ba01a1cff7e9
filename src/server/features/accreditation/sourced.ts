import {
  type LineStatus,
  requirementApprovalMachine,
} from '../../../../workflows/requirement-approval.machine.js';
import { DATUM_MAX_LENGTH } from '../../../shared/accreditation.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import type { RequirementSources, SourcedEvidence } from '../../requirement-sources.js';
import { requireTransition } from '../../workflow.js';
import { type DatumDef, dataById, type ProfileDef } from './catalogue.js';
import { type Line, lineFacts, uncarry } from './lines.js';

/** Whom a request's lines are proven for: a worker, on the request's dates. */
interface Holder {
  IdCliente: number;
  IdDivision: number;
  IdEntidad: string;
  IdPersona: number | null;
  FechaInicio: string;
  FechaFin: string;
}

/**
 * The proofs the requirement sources hold of the requirements the profile asks of a request's
 * worker, on the request as it is stored now (its worker and dates just saved).
 */
export async function proofsFor(
  db: Db,
  registry: Registry,
  sources: RequirementSources,
  id: number,
  profile: ProfileDef,
  today: () => Promise<string>,
): Promise<Map<number, SourcedEvidence>> {
  if (!sources.size) return new Map();
  const request = (await db
    .selectFrom(registry.require('request').table)
    .select(['IdCliente', 'IdDivision', 'IdEntidad', 'IdPersona', 'FechaInicio', 'FechaFin'])
    .where('IdSolicitud', '=', id)
    .executeTakeFirst()) as Holder | undefined;
  if (request?.IdEntidad !== 'T' || !request.IdPersona) return new Map();
  return sources.prove(db, {
    IdCliente: request.IdCliente,
    IdDivision: request.IdDivision,
    IdPersona: request.IdPersona,
    requirements: profile.requirements.map((r) => r.IdRequisito),
    FechaInicio: request.FechaInicio,
    FechaFin: request.FechaFin,
    today: await today(),
  });
}

/** What a datum takes from a proof, by its type: its dates, its text, its figure, a yes; a list is left. */
function datumValue(datum: DatumDef, proof: SourcedEvidence): string | null {
  switch (datum.Tipo) {
    case 'F':
      return datum.Vencimiento === 'S' ? proof.expires : proof.issued;
    case 'N':
      return proof.number === undefined ? null : String(proof.number);
    case 'B':
      return 'S';
    case 'L':
    case 'G':
      return null;
    default:
      return proof.text?.toLocaleUpperCase('es').slice(0, DATUM_MAX_LENGTH[datum.Tipo]) || null;
  }
}

/** The status a proof gives a line, as the approval machine says; undefined where it may not (rejected). */
function provenStatus(line: Line, lines: readonly Line[]): LineStatus | null | undefined {
  const status = line.EstadoAprobacion;
  if (status === null || status === 'A') return status;
  const stored = { value: status, context: lineFacts(line, lines) };
  if (!requirementApprovalMachine.resolveState(stored).can({ type: 'PROVE' })) return undefined;
  return requireTransition(
    requirementApprovalMachine,
    stored,
    { type: 'PROVE' },
    { messageKey: 'accreditation.refusals.lineNotChangeable' },
  ).value as LineStatus;
}

/** A line filled from its proof, approved as by the system where it was not yet. */
function fill(line: Line, datum: DatumDef, proof: SourcedEvidence, status: LineStatus | null, at: string) {
  if (status !== line.EstadoAprobacion) {
    line.EstadoAprobacion = status;
    line.IdUsuarioAprobacion = 'SISTEMA';
    line.FechaAprobacion = at;
    line.FechaLimiteCorreccion = null;
  }
  line.Valor = datumValue(datum, proof);
  line.FechaVencimiento = proof.expires;
  line.IdSolicitudOrigen = null;
  line.Fuente = proof.source;
  line.ReferenciaFuente = String(proof.ref);
  line.DetalleFuente = JSON.stringify(proof.facts).slice(0, 1000);
  line.EnlaceFuente = proof.link?.slice(0, 300) ?? null;
}

/** A line whose proof no longer holds: the requester's (or authoriser's) to fill again, pending. */
function release(line: Line) {
  uncarry(line);
  line.Valor = null;
  line.FechaVencimiento = null;
  line.Fuente = null;
  line.ReferenciaFuente = null;
  line.DetalleFuente = null;
  line.EnlaceFuente = null;
}

/**
 * The lines of each requirement a source proves are filled from the proof (its dates, its text and
 * figure, its facts and certificate) and approved through the approval machine as by the system;
 * a line proven before whose proof no longer holds is released.
 */
export function applyProofs(
  lines: Line[],
  profile: ProfileDef,
  proofs: ReadonlyMap<number, SourcedEvidence>,
  at: string,
): void {
  const data = dataById(profile);
  for (const line of lines) {
    const proof = proofs.get(line.IdRequisito);
    const datum = data.get(line.IdDatoEvaluar)?.datum;
    if (!proof || !datum) {
      if (line.Fuente) release(line);
      continue;
    }
    const status = provenStatus(line, lines);
    if (status !== undefined) fill(line, datum, proof, status, at);
  }
}
