import type { RequestFacts } from '../../../../workflows/request.machine.js';
import type { LineFacts, LineStatus } from '../../../../workflows/requirement-approval.machine.js';
import { normaliseValue } from '../../../shared/accreditation.js';
import type { FieldProblem } from '../../../shared/validation.js';
import type { DatumDef, ProfileDef, RequirementDef } from './catalogue.js';

/** A request's detail line (the request-detail entity's columns). */
export interface Line {
  IdDetalle?: number;
  IdSolicitud?: number;
  IdVisitaPersona: number | null;
  IdRequisito: number;
  IdDatoEvaluar: number;
  TipoRequisito: 'S' | 'A';
  Valor: string | null;
  Observacion: string | null;
  EstadoAprobacion: LineStatus | null;
  ClaveArchivo: string | null;
  NombreArchivo: string | null;
  TipoArchivo: string | null;
  FechaVencimiento: string | null;
  IdUsuarioAprobacion: string | null;
  FechaAprobacion: string | null;
  /** An observed line's correction deadline (its requirement type's DiasCorreccion). */
  FechaLimiteCorreccion?: string | null;
  /** A value carried over from the holder's accreditation: the request that accredited it. */
  IdSolicitudOrigen?: number | null;
  /**
   * A value proven by a requirement source (a passed induction): the source's name, its record,
   * what the authoriser reads of it (its labelled facts, JSON) and where its certificate is read.
   */
  Fuente?: string | null;
  ReferenciaFuente?: string | null;
  DetalleFuente?: string | null;
  EnlaceFuente?: string | null;
}

/** A value the requester sends for one datum (spec: the request's Detalle). */
export interface LineInput {
  IdDatoEvaluar: number;
  Valor?: unknown;
  /** A visit's line: its visitor, by id or (on a new visit) by document. */
  IdVisitaPersona?: number;
  Documento?: string;
}

const key = (visitor: number | null, datum: number) => `${visitor ?? 0}:${datum}`;

/** The lines a profile asks for: one per datum (but group headings), per visitor on a visit. */
export function expectedLines(profile: ProfileDef, visitors: Array<number | null>): Line[] {
  const lines: Line[] = [];
  for (const visitor of visitors)
    for (const requirement of profile.requirements)
      for (const datum of requirement.data) {
        if (datum.Tipo === 'G') continue;
        lines.push({
          IdVisitaPersona: visitor,
          IdRequisito: requirement.IdRequisito,
          IdDatoEvaluar: datum.IdDatoEvaluar,
          TipoRequisito: requirement.TipoRequisito,
          Valor: datum.ValorDefecto ? datum.ValorDefecto.toLocaleUpperCase('es') : null,
          Observacion: null,
          EstadoAprobacion: datum.Aprobar === 'S' ? 'P' : null,
          ClaveArchivo: null,
          NombreArchivo: null,
          TipoArchivo: null,
          FechaVencimiento: null,
          IdUsuarioAprobacion: null,
          FechaAprobacion: null,
        });
      }
  return lines;
}

/**
 * Keeps what the request already holds (values, files, evaluations) for the lines the profile
 * still asks, so a saved request keeps its files when it is saved again.
 */
export function mergeLines(expected: Line[], stored: Line[]): Line[] {
  const byKey = new Map(stored.map((l) => [key(l.IdVisitaPersona, l.IdDatoEvaluar), l]));
  return expected.map((line) => {
    const kept = byKey.get(key(line.IdVisitaPersona, line.IdDatoEvaluar));
    return kept ? { ...line, ...kept } : line;
  });
}

/** A carried-over line made the requester's own again: pending where it is evaluated. */
export function uncarry(line: Line): void {
  line.IdSolicitudOrigen = null;
  if (line.EstadoAprobacion !== null) line.EstadoAprobacion = 'P';
  line.IdUsuarioAprobacion = null;
  line.FechaAprobacion = null;
}

/**
 * Applies the requester's values to the lines of requester-type requirements, checked against
 * each datum's type. Answers the problems by datum (`Detalle.<IdDatoEvaluar>`) without changing
 * anything when there is one. Authoriser-type requirements are not the requester's to fill.
 */
export function applyValues(
  lines: Line[],
  inputs: readonly LineInput[],
  data: Map<number, { datum: DatumDef; requirement: RequirementDef }>,
  visitorOf: (input: LineInput) => number | null,
): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  const updates: Array<[Line, string | null]> = [];
  for (const input of inputs) {
    const found = data.get(Number(input.IdDatoEvaluar));
    const field = `Detalle.${input.IdDatoEvaluar}`;
    if (!found) {
      problems[field] = { messageKey: 'accreditation.refusals.unknownDatum' };
      continue;
    }
    if (found.requirement.TipoRequisito !== 'S') continue;
    const visitor = visitorOf(input);
    const line = lines.find(
      (l) => l.IdDatoEvaluar === found.datum.IdDatoEvaluar && l.IdVisitaPersona === visitor,
    );
    if (!line) {
      problems[field] = { messageKey: 'accreditation.refusals.unknownDatum' };
      continue;
    }
    // A value its source proves is the source's, not the requester's to change.
    if (line.Fuente) continue;
    const { value, problem } = normaliseValue(
      { Tipo: found.datum.Tipo, choices: found.datum.choices.map((c) => c.IdDato) },
      input.Valor,
    );
    if (problem) problems[field] = problem;
    else updates.push([line, value ?? null]);
  }
  if (Object.keys(problems).length) return problems;
  for (const [line, value] of updates) {
    // An observed line the requester changes is pending again (the approval machine's CORRECT).
    if (line.Valor !== value && line.EstadoAprobacion === 'O') line.EstadoAprobacion = 'P';
    // A carried-over value the requester replaces is the requester's own, to be evaluated.
    if (line.Valor !== value && line.IdSolicitudOrigen) uncarry(line);
    line.Valor = value;
    const { datum } = data.get(line.IdDatoEvaluar) as { datum: DatumDef };
    if (datum.Vencimiento === 'S') line.FechaVencimiento = value;
  }
  return problems;
}

/**
 * The mandatory requester-type data still missing: a value for every datum that is not optional,
 * and the file where the datum asks for one (spec section 5: all requirements entered and attached).
 */
export function missingData(profile: ProfileDef, lines: readonly Line[]): Line[] {
  const required = new Map<number, DatumDef>();
  for (const requirement of profile.requirements) {
    if (requirement.TipoRequisito !== 'S' || requirement.Obligatorio !== 'S') continue;
    for (const datum of requirement.data)
      if (datum.Tipo !== 'G' && (datum.DatoOpcional !== 'S' || datum.AdjuntarArchivo === 'S'))
        required.set(datum.IdDatoEvaluar, datum);
  }
  return lines.filter((line) => {
    const datum = required.get(line.IdDatoEvaluar);
    // A line its source proves is complete: the source's record (its certificate) is the evidence.
    if (!datum || line.Fuente) return false;
    const needsValue = datum.DatoOpcional !== 'S' && datum.AdjuntarArchivo !== 'S';
    return (needsValue && !line.Valor) || (datum.AdjuntarArchivo === 'S' && !line.ClaveArchivo);
  });
}

/** The request machine's facts from its lines and the checks the caller made. */
export function requestFacts(
  lines: readonly Line[],
  checks: { complete: boolean; datesValid: boolean },
): RequestFacts {
  const count = (status: LineStatus) => lines.filter((l) => l.EstadoAprobacion === status).length;
  return {
    ...checks,
    linesPending: count('P'),
    linesObserved: count('O'),
    linesRejected: count('R'),
  };
}

/** The approval machine's facts for one line of a request. */
export function lineFacts(line: Line, lines: readonly Line[]): LineFacts {
  return {
    requirementType: line.TipoRequisito,
    approvable: line.EstadoAprobacion !== null,
    requesterPending: lines.some(
      (l) =>
        l.TipoRequisito === 'S' &&
        l.EstadoAprobacion !== null &&
        l.EstadoAprobacion !== 'A' &&
        l.IdVisitaPersona === line.IdVisitaPersona,
    ),
  };
}

/**
 * The requester's values a caller may send: not those of a requirement whose sensitive data
 * (health, criminal record) its profile does not read. It was sent them empty, so they stay stored.
 */
export function readableInputs(
  inputs: LineInput[],
  profile: ProfileDef,
  readable: ReadonlySet<string> | undefined,
): LineInput[] {
  const hidden = new Set(
    profile.requirements
      .filter((r) => r.ClaseDato !== null && !readable?.has(r.ClaseDato))
      .flatMap((r) => r.data.map((d) => d.IdDatoEvaluar)),
  );
  return hidden.size ? inputs.filter((input) => !hidden.has(Number(input.IdDatoEvaluar))) : inputs;
}
