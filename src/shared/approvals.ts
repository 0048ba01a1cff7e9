/**
 * Who may decide a whole request (approve, observe, reject or return it), shared by the server,
 * which enforces it, and the console, which says why a decision is not the user's. The lines of a
 * request are evaluated by the approvers of their requirement type, in order (`evaluable` on the
 * server); the request as a whole is decided by an approver to whom every one of its lines
 * belongs, once it is their turn:
 * - a request with lines (a mobilisation, a renewal): every line flagged for approval is covered
 *   by one of the approver's rows of the request's kind (a row without requirement type covers
 *   every type), and no line of an earlier order than the approver's is still open;
 * - a request without lines (a demobilisation, a contract extension or change, which end or move
 *   an accreditation whole): an approver of the request's kind for every requirement type (the
 *   contract administrator's or the accreditation centre's row, without requirement type).
 * An occupational-health approver, say, evaluates the health lines and nothing more.
 */

/** An approver's row for one kind of holder in a division: its order and requirement type (none: all). */
export interface ApproverScope {
  Orden: number;
  IdTipoRequisito: number | null;
}

/** A request's line as this rule sees it: its requirement's type and its approval state (null: not flagged). */
export interface LineScope {
  type: number | undefined;
  status: string | null;
}

export type WholeDecision = 'allowed' | 'notYours' | 'notYourTurn';

const covers = (row: ApproverScope, line: LineScope) =>
  row.IdTipoRequisito === null || row.IdTipoRequisito === line.type;

/**
 * Whether the approver with rows `mine` (of the request's kind of holder, in its division) may
 * decide the request as a whole, given every approver's rows `all` and the request's `lines`
 * (none for a demobilisation, extension or contract change).
 */
export function wholeDecision(
  mine: ApproverScope[],
  all: ApproverScope[],
  lines: LineScope[],
): WholeDecision {
  if (!mine.length) return 'notYours';
  const flagged = lines.filter((line) => line.status !== null);
  if (!flagged.length) return mine.some((row) => row.IdTipoRequisito === null) ? 'allowed' : 'notYours';
  if (!flagged.every((line) => mine.some((row) => covers(row, line)))) return 'notYours';
  const order = Math.min(...mine.map((row) => row.Orden));
  const orderOf = (line: LineScope) =>
    Math.min(...all.filter((row) => covers(row, line)).map((row) => row.Orden), Number.POSITIVE_INFINITY);
  return flagged.some((line) => line.status !== 'A' && orderOf(line) < order) ? 'notYourTurn' : 'allowed';
}
