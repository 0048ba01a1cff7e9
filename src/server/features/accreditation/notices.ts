import { requestNumber } from '../../../shared/accreditation.js';
import type { Notifier } from '../../auth/notifier.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';

interface RequestRow {
  IdSolicitud: number;
  IdCliente: number;
  IdDivision: number;
  IdEntidad: string;
  EstadoAprobacion: string;
  IdUsuarioCreacion: string;
  IdContrato?: number | null;
}

const KIND = {
  T: ['trabajador', 'worker'],
  V: ['vehículo', 'vehicle'],
  P: ['visita', 'visit'],
  E: ['empresa', 'company'],
} as Record<string, [string, string]>;

const OUTCOME: Record<string, [string, string]> = {
  A: ['aprobada', 'approved'],
  O: [
    'observada: corrija lo observado y vuelva a enviarla',
    'observed: correct what was observed and send it again',
  ],
  R: ['rechazada', 'rejected'],
  I: ['devuelta para completarla', 'returned to be completed'],
};

/** The active users among `ids`, with their mail address (none for an empty list). */
export async function activeUsers(
  db: Db,
  registry: Registry,
  ids: string[],
): Promise<Array<{ IdUsuario: string; Correo: string | null }>> {
  if (!ids.length) return [];
  return (await db
    .selectFrom(registry.require('user').table)
    .select(['IdUsuario', 'Correo'])
    .where('IdUsuario', 'in', ids)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdUsuario: string; Correo: string | null }>;
}

/**
 * The accreditation's mail (spec: the outbox and SMTP): a sent request to the division's first
 * approvers of its kind, the next order's when their turn comes, and the outcome to the requester.
 * Mail goes after the change commits; a failure to record it is logged, never undoes the change.
 */
export class Notices {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly notifier: Notifier,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  private users(ids: string[]) {
    return activeUsers(this.db, this.registry, ids);
  }

  private async mail(request: RequestRow, to: string[], subject: [string, string], text: [string, string]) {
    for (const user of await this.users(to)) {
      if (!user.Correo) continue;
      try {
        await this.notifier.send({
          clientId: request.IdCliente,
          userId: user.IdUsuario,
          channel: 'C',
          to: user.Correo,
          subject: `${subject[0]} / ${subject[1]}`,
          text: `${text[0]}\n\n${text[1]}`,
        });
      } catch (error) {
        this.log.error({ err: error, request: request.IdSolicitud }, 'accreditation notice not recorded');
      }
    }
  }

  /** The approvers of one order (the lowest when none is given) of the request's kind and division. */
  private async approvers(request: RequestRow, order?: number): Promise<string[]> {
    const rows = (await this.db
      .selectFrom(this.registry.require('approver').table)
      .select(['IdUsuario', 'Orden'])
      .where('IdDivision', '=', request.IdDivision)
      .where('IdEntidad', '=', request.IdEntidad)
      .where('Activo', '=', 'S')
      .execute()) as Array<{ IdUsuario: string; Orden: number }>;
    const wanted = order ?? Math.min(...rows.map((r) => r.Orden));
    return [...new Set(rows.filter((r) => r.Orden === wanted).map((r) => r.IdUsuario))];
  }

  async sent(request: RequestRow): Promise<void> {
    const number = requestNumber(request.IdSolicitud);
    const [es, en] = KIND[request.IdEntidad] ?? ['', ''];
    await this.mail(
      request,
      await this.approvers(request),
      [`Solicitud ${number} por evaluar`, `Request ${number} to evaluate`],
      [
        `La solicitud de acreditación ${number} (${es}) fue enviada y espera su evaluación.`,
        `Accreditation request ${number} (${en}) was sent and awaits your evaluation.`,
      ],
    );
  }

  /** The next approvers' turn: the earlier orders approved their part. */
  async turn(request: RequestRow, order: number): Promise<void> {
    const number = requestNumber(request.IdSolicitud);
    await this.mail(
      request,
      await this.approvers(request, order),
      [`Solicitud ${number} por evaluar`, `Request ${number} to evaluate`],
      [
        `Los autorizadores anteriores aprobaron su parte de la solicitud ${number}: es su turno.`,
        `The earlier approvers approved their part of request ${number}: it is your turn.`,
      ],
    );
  }

  /** The contract's operators 1 and 2 (the client's users who administer it), if it names them. */
  private async operators(request: RequestRow): Promise<string[]> {
    if (!request.IdContrato) return [];
    const row = (await this.db
      .selectFrom(this.registry.require('contract').table)
      .select(['IdOperador1', 'IdOperador2'])
      .where('IdContrato', '=', request.IdContrato)
      .executeTakeFirst()) as { IdOperador1: string | null; IdOperador2: string | null } | undefined;
    return [row?.IdOperador1, row?.IdOperador2].filter((id): id is string => Boolean(id));
  }

  /** The outcome to the requester, with a copy to the contract's operators. */
  async evaluated(request: RequestRow, reason: string): Promise<void> {
    const outcome = OUTCOME[request.EstadoAprobacion];
    if (!outcome) return;
    const number = requestNumber(request.IdSolicitud);
    const note = reason ? [`\nMotivo: ${reason}`, `\nReason: ${reason}`] : ['', ''];
    await this.mail(
      request,
      [...new Set([request.IdUsuarioCreacion, ...(await this.operators(request))])],
      [`Solicitud ${number} ${outcome[0].split(':')[0]}`, `Request ${number} ${outcome[1].split(':')[0]}`],
      [
        `La solicitud ${number} fue ${outcome[0]}.${note[0]}`,
        `Request ${number} was ${outcome[1]}.${note[1]}`,
      ],
    );
  }
}
