import { requestNumber } from '../../../shared/accreditation.js';
import type { Notifier } from '../../auth/notifier.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { activeUsers } from './notices.js';

interface Overdue {
  IdDetalle: number;
  IdSolicitud: number;
  FechaLimiteCorreccion: string;
  Requisito: string;
  IdTipoRequisito: number | null;
  IdDivision: number;
  IdEntidad: string;
}

interface Approver {
  IdUsuario: string;
  Orden: number;
  IdTipoRequisito: number | null;
}

/**
 * The users an overdue correction escalates to: among the approvers whose requirement types cover
 * the line, those of the order after the one that evaluates it (approvers evaluate in order; a
 * line is the first covering order's), or that order's own when no later one covers it.
 */
export function escalationTargets(approvers: Approver[], type: number | null): string[] {
  const covering = approvers.filter((a) => a.IdTipoRequisito === null || a.IdTipoRequisito === type);
  if (!covering.length) return [];
  const own = Math.min(...covering.map((a) => a.Orden));
  const later = covering.map((a) => a.Orden).filter((o) => o > own);
  const next = later.length ? Math.min(...later) : own;
  return [...new Set(covering.filter((a) => a.Orden === next).map((a) => a.IdUsuario))];
}

/**
 * Escalates the observed lines of observed requests whose correction deadline passed before
 * `today` and were not escalated yet: one mail per request to the next approvers, in the caller's
 * transaction with the mark on the lines, so each lapse is told once (a new observation clears it).
 */
export async function escalateOverdue(
  trx: Db,
  registry: Registry,
  notifier: Notifier,
  client: number,
  today: string,
  at: string,
): Promise<number> {
  const table = (name: string) => registry.require(name).table;
  const overdue = (await trx
    .selectFrom(`${table('request-detail')} as d`)
    .innerJoin(`${table('request')} as r`, 'r.IdSolicitud', 'd.IdSolicitud')
    .innerJoin(`${table('requirement')} as q`, 'q.IdRequisito', 'd.IdRequisito')
    .select([
      'd.IdDetalle',
      'd.IdSolicitud',
      'd.FechaLimiteCorreccion',
      'q.Requisito',
      'q.IdTipoRequisito',
      'r.IdDivision',
      'r.IdEntidad',
    ])
    .where('d.IdCliente', '=', client)
    .where('d.EstadoAprobacion', '=', 'O')
    .where('d.FechaLimiteCorreccion', '<', today)
    .where('d.FechaEscalamiento', 'is', null)
    .where('r.EstadoAprobacion', '=', 'O')
    .orderBy('d.IdDetalle')
    .execute()) as Overdue[];
  const byRequest = new Map<number, Overdue[]>();
  for (const line of overdue)
    byRequest.set(line.IdSolicitud, [...(byRequest.get(line.IdSolicitud) ?? []), line]);
  for (const [id, lines] of byRequest) {
    const { IdDivision, IdEntidad } = lines[0];
    const approvers = (await trx
      .selectFrom(table('approver'))
      .select(['IdUsuario', 'Orden', 'IdTipoRequisito'])
      .where('IdDivision', '=', IdDivision)
      .where('IdEntidad', '=', IdEntidad)
      .where('Activo', '=', 'S')
      .execute()) as Approver[];
    const to = [...new Set(lines.flatMap((line) => escalationTargets(approvers, line.IdTipoRequisito)))];
    const recipients = await activeUsers(trx, registry, to);
    const number = requestNumber(id);
    const list = lines.map((l) => `- ${l.Requisito}: ${l.FechaLimiteCorreccion}`).join('\n');
    for (const user of recipients) {
      if (!user.Correo) continue;
      await notifier.send(
        {
          clientId: client,
          userId: user.IdUsuario,
          channel: 'C',
          to: user.Correo,
          subject: `Corrección vencida: solicitud ${number} / Correction overdue: request ${number}`,
          text: [
            `La solicitud ${number} sigue observada después del plazo de corrección de estos requisitos:\n${list}`,
            `Request ${number} is still observed after the correction deadline of these requirements:\n${list}`,
          ].join('\n\n'),
        },
        trx,
      );
    }
    await trx
      .updateTable(table('request-detail'))
      .set({ FechaEscalamiento: at })
      .where(
        'IdDetalle',
        'in',
        lines.map((l) => l.IdDetalle),
      )
      .execute();
  }
  return byRequest.size;
}
