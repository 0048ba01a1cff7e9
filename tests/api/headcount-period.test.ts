import { describe, expect, it } from 'vitest';
import { addDays, instantAt, siteDate, timeZoneOf } from '../../src/shared/dates.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const BASE = '/api/acreditacionsolicitud';

describe.each(DIALECTS)(
  'the headcount of a month (dashboarddotacion with CantYear and CantMonth) on %s',
  (dialect) => {
    const w = world(dialect, { users: { requester: 'SOLICITANTE' } });
    const { as } = w;
    const db = () => w.t.db.database.db;
    const today = siteDate('PE');
    // The last day of the month before this one, and its year and month.
    const lastDay = addDays(`${today.slice(0, 7)}-01`, -1);
    const past = `CantYear=${lastDay.slice(0, 4)}&CantMonth=${Number(lastDay.slice(5, 7))}`;
    const summary = async (query = '') => {
      const res = await as('requester', 'GET', `${BASE}/dashboarddotacion${query ? `?${query}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result[0][0] as Json;
    };
    const listed = async (state: 'P' | 'A', query: string, document: string) => {
      const filter = encodeURIComponent(JSON.stringify(['Documento', '=', document]));
      const res = await as(
        'requester',
        'GET',
        `${BASE}/dashboarddotaciondetalle?TipoConsulta=${state}&TipoEntidad=T&filter=${filter}&requireTotalCount=true${query ? `&${query}` : ''}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.data as Json[];
    };

    it('counts the month’s end apart from today: who was accredited then, and who was inside when it ended', async () => {
      // A worker of the requester's company accredited today, not inside now.
      const [worker] = (
        await as('requester', 'GET', `${BASE}/dashboarddotaciondetalle?TipoConsulta=A&TipoEntidad=T&take=1`)
      ).body.result.data as Json[];
      expect(worker?.IdPersona).toBeTypeOf('number');
      const accreditation = (await db()
        .selectFrom('accreditation_accreditation')
        .selectAll()
        .where('IdPersona', '=', worker.IdPersona)
        .where('IdEntidad', '=', 'T')
        .where('Estado', '=', 'A')
        .executeTakeFirstOrThrow()) as Json;
      // Accredited since well before the month's end, so it counts then too.
      await db()
        .updateTable('accreditation_accreditation')
        .set({ FechaInicio: addDays(lastDay, -20) })
        .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
        .execute();
      // Out of the site at the month's end: its markings of that night and after are not there.
      const end = new Date(instantAt(today, 0, timeZoneOf('PE'))).toISOString();
      await db()
        .deleteFrom('access_marking')
        .where('IdPersona', '=', worker.IdPersona)
        .where('FechaHora', '>=', new Date(instantAt(lastDay, 0, timeZoneOf('PE'))).toISOString())
        .where('FechaHora', '<', end)
        .execute();
      const now0 = await summary();
      const then0 = await summary(past);
      expect(await listed('A', past, worker.Documento)).toHaveLength(1);

      // This month asked is today's headcount; the month before is its own.
      expect(await summary(`CantYear=${today.slice(0, 4)}&CantMonth=${Number(today.slice(5, 7))}`)).toEqual(
        now0,
      );

      // Not accredited yet at the month's end: counted today, not then.
      await db()
        .updateTable('accreditation_accreditation')
        .set({ FechaInicio: today })
        .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
        .execute();
      expect((await summary()).TotalTrabajadores).toBe(now0.TotalTrabajadores);
      expect((await summary(past)).TotalTrabajadores).toBe(then0.TotalTrabajadores - 1);
      expect(await listed('A', past, worker.Documento)).toHaveLength(0);
      await db()
        .updateTable('accreditation_accreditation')
        .set({ FechaInicio: addDays(lastDay, -20) })
        .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
        .execute();

      // An entry on the month's last evening: present then (with its zone-less mark and time), not now.
      const division = (await db()
        .selectFrom('accreditation_accreditation')
        .select(['IdCliente', 'IdDivision'])
        .where('IdAcreditacion', '=', accreditation.IdAcreditacion)
        .executeTakeFirstOrThrow()) as Json;
      const entry = instantAt(lastDay, 22 * 60 + 30, timeZoneOf('PE'));
      await db()
        .insertInto('access_marking')
        .values({
          IdCliente: division.IdCliente,
          IdDivision: division.IdDivision,
          IdPersona: worker.IdPersona,
          Fecha: lastDay,
          Hora: '22:30:00',
          Resultado: 'P',
          Origen: 'M',
          Funcion: 'E',
          TipoMarcacion: 'C',
          Automatico: 'N',
          EnLinea: 'S',
          FechaHora: new Date(entry).toISOString(),
          FechaHoraDispositivo: new Date(entry).toISOString(),
          HoraDudosa: 'N',
          IdMarcaDispositivo: `prueba-${dialect}-${worker.IdPersona}`,
          IdUsuarioCreacion: 'PRUEBA',
          FechaCreacion: new Date().toISOString(),
        })
        .execute();
      const then1 = await summary(past);
      expect(then1.TotalTrabajadores).toBe(then0.TotalTrabajadores);
      expect(then1.PermanenciaTrabajadores).toBe(then0.PermanenciaTrabajadores + 1);
      const [inside] = await listed('P', past, worker.Documento);
      expect(inside).toMatchObject({
        IdPersona: worker.IdPersona,
        FechaMarca: new Date(entry).toISOString(),
      });
      // Ninety minutes to the day's end.
      expect(inside.Permanencia).toBe(90);
      expect(await summary()).toEqual(now0);
      expect(await listed('P', '', worker.Documento)).toHaveLength(0);
    });

    it('refuses a bad month or year with a 400 that names it', async () => {
      for (const [query, field, key] of [
        ['CantYear=2026&CantMonth=13', 'CantMonth', 'headcount.badMonth'],
        ['CantYear=2026&CantMonth=0', 'CantMonth', 'headcount.badMonth'],
        ['CantYear=2026&CantMonth=3,x', 'CantMonth', 'headcount.badMonth'],
        ['CantMonth=1.5', 'CantMonth', 'headcount.badMonth'],
      ]) {
        for (const path of ['dashboarddotacion', 'dashboarddotaciondetalle']) {
          const res = await as('requester', 'GET', `${BASE}/${path}?${query}`);
          expect(res.status, `${path}?${query}`).toBe(400);
          expect(res.body.errors[field].messageKey, `${path}?${query}`).toBe(key);
        }
      }
      for (const query of ['CantYear=1999&CantMonth=5', 'CantYear=20x6&CantMonth=5', 'CantYear=2101'])
        for (const path of ['dashboarddotacion', 'dashboarddotaciondetalle']) {
          const res = await as('requester', 'GET', `${BASE}/${path}?${query}`);
          expect(res.status, `${path}?${query}`).toBe(400);
          expect(res.body.errors.CantYear.messageKey, `${path}?${query}`).toBe('headcount.badYear');
          expect(res.body.message, query).toContain('CantYear');
        }
    });
  },
);
