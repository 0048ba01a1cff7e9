import type { RequestEvent, RequestStatus } from '../../../../../workflows/request.machine.js';
import {
  EVENT_FOR_STATUS,
  type LineStatus,
  requirementApprovalMachine,
} from '../../../../../workflows/requirement-approval.machine.js';
import { type WholeDecision, wholeDecision } from '../../../../shared/approvals.js';
import { addDays } from '../../../../shared/dates.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { requireTransition } from '../../../workflow.js';
import type { ProfileDef } from '../catalogue.js';
import { type Line, lineFacts, requestFacts } from '../lines.js';
import type { Authoriser } from '../roles.js';
import { lastSent, minutesBetween, OUTCOME_OF } from './attention.js';
import type { RequestEngine, Revoked, Stored } from './engine.js';
import { type Body, decisionOf, idOf, parseDetail, selectionOf, upper } from './input.js';

type Approver = { Orden: number; IdTipoRequisito: number | null };

/** The decisions a single evaluation call takes, and a mass one (a mass return makes no sense). */
const SINGLE = ['APROBAR', 'OBSERVAR', 'RECHAZAR', 'DEVOLVER'];
const MASS = ['APROBAR', 'OBSERVAR', 'RECHAZAR'];

/** One request as an evaluation leaves it. */
export interface Evaluated {
  request: Stored;
  newlyReady: number[];
  reason: string;
  revoked: Revoked[];
}

/** The approval order that evaluates each line: the first order whose approver row covers its requirement type. */
function orderOfLine(profile: ProfileDef, approvers: Approver[]) {
  const typeOf = new Map(profile.requirements.map((r) => [r.IdRequisito, r.IdTipoRequisito]));
  const covers = (row: { IdTipoRequisito: number | null }, line: Line) =>
    row.IdTipoRequisito === null || row.IdTipoRequisito === typeOf.get(line.IdRequisito);
  return {
    covers,
    orderOf: (line: Line) =>
      Math.min(...approvers.filter((a) => covers(a, line)).map((a) => a.Orden), Number.POSITIVE_INFINITY),
  };
}

const open = (line: Line) => line.EstadoAprobacion !== null && line.EstadoAprobacion !== 'A';

/**
 * The authorisers' side of every kind of request: line by line where the kind carries lines
 * (each change asked of the approval machine), then a decision on the whole (asked of the
 * request machine), whose approval runs the kind's effect in the same transaction.
 */
export class Decisions {
  constructor(private readonly engine: RequestEngine) {}

  /** Every approver of the request's kind in its division, for the order of evaluation. */
  async approvers(trx: Db, request: Stored) {
    return (await trx
      .selectFrom(this.engine.table('approver'))
      .select(['IdUsuario', 'Orden', 'IdTipoRequisito'])
      .where('IdDivision', '=', request.IdDivision)
      .where('IdEntidad', '=', request.IdEntidad)
      .where('Activo', '=', 'S')
      .execute()) as Array<{ IdUsuario: string; Orden: number; IdTipoRequisito: number | null }>;
  }

  /**
   * Approvers evaluate in order (DOMAIN: contract administrator, safety, health, security): a
   * line is the first order's that covers its requirement type, and an approver may evaluate it
   * once every line of an earlier order is approved. `evaluable`: the lines the authoriser may
   * change now; `waits`: for each of its own lines it may not approve yet, the lines it waits
   * for (an earlier order's open lines, or for an authoriser-type line the requester-type lines
   * not approved yet, spec section 5).
   */
  turns(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef,
    lines: Line[],
    approvers: Approver[],
  ): { evaluable: Set<number>; waits: Map<number, Line[]> } {
    const { covers, orderOf } = orderOfLine(profile, approvers);
    const mine = authoriser.rows.filter((r) => r.IdEntidad === request.IdEntidad);
    const evaluable = new Set<number>();
    const waits = new Map<number, Line[]>();
    for (const line of lines) {
      if (!line.IdDetalle || line.EstadoAprobacion === null) continue;
      const row = mine.find((r) => covers(r, line));
      if (!row) continue;
      const earlier = lines.filter((other) => open(other) && orderOf(other) < row.Orden);
      if (earlier.length) {
        waits.set(line.IdDetalle, earlier);
        continue;
      }
      evaluable.add(line.IdDetalle);
      if (line.TipoRequisito === 'A' && open(line)) {
        const requester = lines.filter((other) => other.TipoRequisito === 'S' && open(other));
        if (requester.length) waits.set(line.IdDetalle, requester);
      }
    }
    return { evaluable, waits };
  }

  /** The approval orders whose turn it is: every line of an earlier order approved, some of theirs pending. */
  private readyOrders(profile: ProfileDef | null, lines: Line[], approvers: Approver[]): Set<number> {
    const ready = new Set<number>();
    if (!profile) return ready;
    const { orderOf } = orderOfLine(profile, approvers);
    const pending = lines.filter(open);
    for (const order of new Set(approvers.map((a) => a.Orden))) {
      if (pending.some((l) => orderOf(l) < order)) continue;
      if (pending.some((l) => orderOf(l) === order)) ready.add(order);
    }
    return ready;
  }

  /**
   * Whether the authoriser may decide the request as a whole (approve, observe, reject, return):
   * src/shared/approvals.ts, on the request's lines as they stand in `lines`. A request without
   * lines (ending or moving an accreditation whole) is for an approver of every requirement type.
   */
  wholeDecisionOf(
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef | null,
    lines: Line[],
    approvers: Approver[],
  ): WholeDecision {
    const typeOf = new Map(profile?.requirements.map((r) => [r.IdRequisito, r.IdTipoRequisito]));
    return wholeDecision(
      authoriser.rows.filter((r) => r.IdEntidad === request.IdEntidad),
      approvers,
      lines
        .filter((line) => line.IdDetalle)
        .map((line) => ({ type: typeOf.get(line.IdRequisito), status: line.EstadoAprobacion })),
    );
  }

  /** The correction days of each requirement's type (0: no deadline). */
  private async correctionDays(db: Db, profile: ProfileDef): Promise<Map<number, number>> {
    const types = [...new Set(profile.requirements.map((r) => r.IdTipoRequisito))];
    const rows = types.length
      ? ((await db
          .selectFrom(this.engine.table('requirement-type'))
          .select(['IdTipoRequisito', 'DiasCorreccion'])
          .where('IdTipoRequisito', 'in', types)
          .execute()) as Array<{ IdTipoRequisito: number; DiasCorreccion: number | null }>)
      : [];
    const days = new Map(rows.map((r) => [r.IdTipoRequisito, Number(r.DiasCorreccion ?? 0)]));
    return new Map(profile.requirements.map((r) => [r.IdRequisito, days.get(r.IdTipoRequisito) ?? 0]));
  }

  /**
   * The authoriser's changes to the request's lines, each asked of the approval machine and
   * written; `lines` is left as the request's lines now stand. Answers the lines decided.
   */
  private async changeLines(
    trx: Db,
    authoriser: Authoriser,
    request: Stored,
    profile: ProfileDef,
    lines: Line[],
    evaluable: Set<number>,
    changes: Body[],
  ): Promise<Line[]> {
    const byId = new Map(lines.map((l) => [l.IdDetalle, l]));
    // Requester-type lines first: an authoriser-type line is approved only after them.
    const ordered = changes
      .map((change) => ({ change, line: byId.get(Number(change.IdDetalle)) }))
      .sort((a, b) => (a.line?.TipoRequisito === 'S' ? 0 : 1) - (b.line?.TipoRequisito === 'S' ? 0 : 1));
    const now = this.engine.at();
    const correction = ordered.length ? await this.correctionDays(trx, profile) : new Map<number, number>();
    const today = await this.engine.siteToday(trx, request.IdDivision);
    const decided: Line[] = [];
    for (const { change, line } of ordered) {
      const field = `Detalle.${change.IdDetalle}`;
      const refuse = (
        messageKey: string,
        code: 'VALIDATION_FAILED' | 'BUSINESS_RULE' = 'VALIDATION_FAILED',
      ) =>
        new ApiError(code, {
          ...(code === 'BUSINESS_RULE' ? { messageKey } : {}),
          fields: { [field]: { messageKey } },
        });
      if (!line?.IdDetalle) throw refuse('accreditation.refusals.unknownDatum');
      const status = change.EstadoAprobacion as LineStatus;
      const note = typeof change.Observacion === 'string' ? upper(change.Observacion) : line.Observacion;
      if (status !== line.EstadoAprobacion) {
        if (!(status in EVENT_FOR_STATUS)) throw refuse('validation.enum');
        if (!evaluable.has(line.IdDetalle))
          throw refuse('ACCREDITATION.MESSAGE.APPROVALSTATUS', 'BUSINESS_RULE');
        if ((status === 'O' || status === 'R') && !note)
          throw refuse('accreditation.refusals.observationRequired');
        const facts = lineFacts(line, lines);
        const blocked = status === 'A' && line.TipoRequisito === 'A' && facts.requesterPending;
        requireTransition(
          requirementApprovalMachine,
          { value: line.EstadoAprobacion as LineStatus, context: facts },
          { type: EVENT_FOR_STATUS[status] },
          blocked
            ? { messageKey: 'ACCREDITATION.MESSAGE.APPROVALSTATUS', code: 'BUSINESS_RULE' }
            : { messageKey: 'accreditation.refusals.lineNotChangeable' },
        );
        line.EstadoAprobacion = status;
        line.IdUsuarioAprobacion = authoriser.principal.userId;
        line.FechaAprobacion = now;
        // An observation is to be corrected within its requirement type's days.
        const days = correction.get(line.IdRequisito) ?? 0;
        line.FechaLimiteCorreccion = status === 'O' && days > 0 ? addDays(today, days) : null;
        if (status !== 'P') decided.push(line);
      }
      // An authoriser-type requirement's values are the authoriser's to record.
      if (line.TipoRequisito === 'A' && change.Valor !== undefined)
        line.Valor = change.Valor === null ? null : upper(change.Valor, 1000);
      line.Observacion = note ?? null;
      await trx
        .updateTable(this.engine.table('request-detail'))
        .set({
          EstadoAprobacion: line.EstadoAprobacion,
          Observacion: line.Observacion,
          Valor: line.Valor,
          IdUsuarioAprobacion: line.IdUsuarioAprobacion,
          FechaAprobacion: line.FechaAprobacion,
          FechaLimiteCorreccion: line.FechaLimiteCorreccion ?? null,
          ...(line.FechaLimiteCorreccion ? { FechaEscalamiento: null } : {}),
        })
        .where('IdDetalle', '=', line.IdDetalle)
        .execute();
    }
    return decided;
  }

  /**
   * What the efficiency report counts of an evaluation, from the sending before it (a corrected
   * request's, from its correction): each line decided, by requirement, and the decision on the
   * whole, by authoriser. One look at the history for both.
   */
  private async countAttention(
    trx: Db,
    authoriser: Authoriser,
    request: Stored,
    decided: Line[],
    type: RequestEvent['type'] | undefined,
  ): Promise<void> {
    if (!decided.length && !type) return;
    const now = this.engine.at();
    const sent = await lastSent(trx, this.engine.registry, request.IdSolicitud, now);
    if (!sent) return;
    const minutes = minutesBetween(sent, now);
    await this.engine.attend(trx, request, [
      ...decided.map((line) => ({
        axis: 'R' as const,
        key: String(line.IdRequisito),
        outcome: line.EstadoAprobacion as string,
        minutes,
      })),
      ...(type
        ? [{ axis: 'U' as const, key: authoriser.principal.userId, outcome: OUTCOME_OF[type], minutes }]
        : []),
    ]);
  }

  /**
   * An evaluation of one pending request of `kinds` in the caller's transaction: its line
   * changes (Detalle) and its decision (Accion, or `decision`); an approval runs the kind's
   * effect (accredit, renew, end, extend, move). The caller mails the outcome.
   */
  async evaluateWithin(
    trx: Db,
    authoriser: Authoriser,
    body: Body,
    kinds: readonly string[],
    decision: { type: RequestEvent['type'] | undefined; reason: string } = decisionOf(body, SINGLE, false),
    /** A mass approval's: every pending line the authoriser may evaluate is approved first. */
    approveEvaluable = false,
  ): Promise<Evaluated> {
    const id = idOf(body.IdSolicitud, 'IdSolicitud');
    let changes = (Array.isArray(body.Detalle) ? body.Detalle : parseDetail(body.Detalle)) as Body[];
    const engine = this.engine;
    const request = await engine.load(trx, authoriser, id, true, kinds);
    if (request.EstadoAprobacion !== 'P')
      throw new ApiError('CONFLICT', { messageKey: 'accreditation.refusals.notPending' });
    const lined = engine.kind(request.TipoSolicitud).lines;
    const profile = lined ? await engine.profileOf(trx, request) : null;
    const lines = lined ? await engine.lines(trx, id) : [];
    const approvers = await this.approvers(trx, request);
    const readyBefore = this.readyOrders(profile, lines, approvers);
    let decided: Line[] = [];
    if (profile && (changes.length || approveEvaluable)) {
      const { evaluable } = this.turns(authoriser, request, profile, lines, approvers);
      if (approveEvaluable)
        changes = lines
          .filter((l) => l.IdDetalle && evaluable.has(l.IdDetalle) && l.EstadoAprobacion === 'P')
          .map((l) => ({ IdDetalle: l.IdDetalle, EstadoAprobacion: 'A' }));
      decided = await this.changeLines(trx, authoriser, request, profile, lines, evaluable, changes);
    }
    let status: RequestStatus = request.EstadoAprobacion;
    let revoked: Revoked[] = [];
    const { type, reason } = decision;
    if (type) {
      const verdict = this.wholeDecisionOf(authoriser, request, profile, lines, approvers);
      if (verdict === 'notYours')
        throw new ApiError('FORBIDDEN', { messageKey: 'accreditation.refusals.notYourDecision' });
      if (verdict === 'notYourTurn')
        throw new ApiError('BUSINESS_RULE', { messageKey: 'accreditation.refusals.notYourTurn' });
      status = await engine.decide(
        trx,
        authoriser,
        request,
        {
          type,
          reason,
          indiscipline: body.IndisciplinaRechazo === 'S',
          indisciplineKind: body.IdIndisciplina as number | undefined,
        },
        requestFacts(lines, { complete: true, datesValid: true }),
      );
      if (status === 'A')
        revoked = await engine.kind(request.TipoSolicitud).approve(engine, trx, {
          request: { ...request, EstadoAprobacion: status },
          profile,
          lines,
          principal: authoriser.principal,
        });
    } else await engine.history(trx, request, authoriser.principal, 'EVALUATE', status);
    await this.countAttention(trx, authoriser, request, decided, type);
    const readyAfter = this.readyOrders(profile, lines, approvers);
    return {
      request: { ...request, EstadoAprobacion: status },
      newlyReady: [...readyAfter].filter((o) => !readyBefore.has(o)),
      reason,
      revoked,
    };
  }

  /** Mails what an evaluation did: the requester the outcome, the next approvers their turn. */
  private async tell(done: Evaluated): Promise<void> {
    await this.engine.notices.evaluated(done.request, done.reason);
    if (done.request.EstadoAprobacion === 'P')
      for (const order of done.newlyReady) await this.engine.notices.turn(done.request, order);
  }

  /** One request of `kinds` evaluated (its lines, its decision) in its own transaction. */
  async evaluate(authoriser: Authoriser, body: Body, kinds: readonly string[], required = false) {
    const decision = decisionOf(body, required ? MASS : SINGLE, required);
    const done = await this.engine.transaction((trx) =>
      this.evaluateWithin(trx, authoriser, body, kinds, decision),
    );
    await this.tell(done);
    return done;
  }

  /**
   * Several requests of `kinds` given the same decision in one transaction, all or nothing.
   * Approving approves, first, every pending line the authoriser may; observing and rejecting need
   * the reason. Refused rows are named as Solicitudes.<index>.
   */
  async evaluateMany(authoriser: Authoriser, body: Body, kinds: readonly string[]): Promise<Evaluated[]> {
    const selected = selectionOf(body.Solicitudes, 'Solicitudes');
    const decision = decisionOf(body, MASS, true);
    const done = await this.engine.allOrNothing(selected, 'Solicitudes', (trx, id) =>
      this.evaluateWithin(trx, authoriser, { IdSolicitud: id }, kinds, decision, decision.type === 'APPROVE'),
    );
    for (const one of done) await this.tell(one);
    return done;
  }
}
