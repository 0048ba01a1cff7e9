import type { FastifyInstance } from 'fastify';
import type { ListQuery } from '../../crud/list-query.js';
import { ApiError } from '../../errors.js';
import { requireGrant } from '../../routes/guards.js';
import { field, resultResponses } from '../../routes/responses.js';

const result = (description: string) => resultResponses(description, [400, 401, 403, 409]);
const WEEK = [1, 2, 3, 4, 5, 6, 7];

interface CopyDayBody {
  IdHorario?: number;
  DiaOrigen?: number;
  Dias?: number[];
  Reemplazar?: boolean;
}

/** POST /api/AccesoHorario/copiarDia: a schedule's Monday (or any day) copied to other days (spec section 3, Access). */
export default async function scheduleCopyRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;
  fastify.post<{ Body: CopyDayBody }>(
    '/AccesoHorario/copiarDia',
    {
      preHandler: requireGrant('schedule-interval', 'write'),
      schema: {
        tags: ['access'],
        summary: 'Copy the intervals of one day of a schedule (Monday by default) to other days',
        description:
          'Without Reemplazar, target days that already have intervals answer 409 (rules.intervalsExistReplace); ' +
          'with Reemplazar true their intervals are deleted first. All in one transaction, each write audited.',
        body: {
          type: 'object',
          properties: {
            IdHorario: field.id(),
            DiaOrigen: { type: 'integer', minimum: 1, maximum: 7 },
            Dias: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 } },
            Reemplazar: { type: 'boolean' },
          },
          required: ['IdHorario'],
        },
        response: result('{ copied, days }'),
      },
    },
    async (request) => {
      const { IdHorario, DiaOrigen = 1, Reemplazar = false } = request.body;
      const days = [...new Set((request.body.Dias ?? []).filter((d) => WEEK.includes(d) && d !== DiaOrigen))];
      if (!days.length) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.selectDay' });
      const schedule = registry.require('schedule');
      const intervals = registry.require('schedule-interval');
      const principal = request.principal;
      await fastify.crud.getOne(schedule, Number(IdHorario), principal);
      const list = (filters: ListQuery['filters']) =>
        fastify.crud.list(
          intervals,
          { sort: { field: 'HoraInicio', order: 'ASC' }, offset: 0, limit: 1000, filters },
          principal,
        );
      const source = (
        await list([
          { field: 'IdHorario', values: [Number(IdHorario)] },
          { field: 'Dia', values: [DiaOrigen] },
        ])
      ).records;
      const existing = (
        await list([
          { field: 'IdHorario', values: [Number(IdHorario)] },
          { field: 'Dia', values: days },
        ])
      ).records;
      if (existing.length && !Reemplazar)
        throw new ApiError('CONFIRMATION_REQUIRED', {
          messageKey: 'rules.intervalsExistReplace',
          params: { days: [...new Set(existing.map((r) => r.Dia as number))].join(',') },
        });
      return fastify.database.db.transaction().execute(async (trx) => {
        const crud = fastify.crud.within(trx);
        for (const record of existing) await crud.remove(intervals, record.id as number, principal);
        let copied = 0;
        for (const day of days) {
          for (const { HoraInicio, HoraFin, Activo } of source) {
            await crud.create(intervals, { IdHorario, Dia: day, HoraInicio, HoraFin, Activo }, principal);
            copied++;
          }
        }
        return { result: { copied, days } };
      });
    },
  );
}
