import { minutesOf } from '../../../shared/access/decision.js';
import { addDays, instantAt, siteDate, timeZoneOf } from '../../../shared/dates.js';
import type { MealPresented } from '../../../shared/dining.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { diningTables, loadDiner, loadDiningSite, loadRoom } from './loader.js';
import { type MealLoaded, recordMeal } from './meals.js';

/**
 * A week of meals at the dining rooms that have a reader, decided by the readers' own rules: the
 * demo's workers accredited in the room's division present their document at breakfast, lunch,
 * dinner and, some nights, the night meal, each at a time within the service; and a few refusals
 * of each kind: a second lunch, a worker after their group's hours, someone at a closed hour,
 * unknown documents, and the demobilised or suspended who come anyway.
 */
export async function seedDemoDining(trx: Db, registry: Registry, clientId: number, now = Date.now()) {
  const tables = diningTables(registry);
  const rooms = (await trx
    .selectFrom(tables.room)
    .select(['IdComedor'])
    .where('IdCliente', '=', clientId)
    .where('Activo', '=', 'S')
    .where('IdEquipo', 'is not', null)
    .orderBy('IdComedor')
    .execute()) as Array<{ IdComedor: number }>;
  let meals = 0;
  for (const { IdComedor } of rooms) {
    const room = await loadRoom(trx, tables, Number(IdComedor));
    if (!room?.IdEquipo) continue;
    const site = await loadDiningSite(trx, tables, room.IdComedor);
    const country = (await trx
      .selectFrom(tables.division)
      .select('IdPais')
      .where('IdDivision', '=', room.IdDivision)
      .executeTakeFirst()) as { IdPais: string | null } | undefined;
    const zone = timeZoneOf(country?.IdPais);
    const people = (await trx
      .selectFrom(`${tables.accreditation} as a`)
      .innerJoin(`${tables.person} as p`, 'p.IdPersona', 'a.IdPersona')
      .select(['p.Documento', 'a.IdCompania', 'a.Estado', 'a.FechaInicio', 'a.FechaFin'])
      .where('a.IdCliente', '=', clientId)
      .where('a.IdDivision', '=', room.IdDivision)
      .where('a.IdEntidad', '=', 'T')
      .orderBy('p.Documento')
      .execute()) as Array<{
      Documento: string;
      IdCompania: number;
      Estado: string;
      FechaInicio: string;
      FechaFin: string;
    }>;
    // Who eats here: accredited in force, of a company in one of the room's groups; the others come now and then, and are refused.
    const fed = new Set(site.groups.filter((g) => g.Activo === 'S').flatMap((g) => g.Companias));
    const eats = (p: (typeof people)[number], day: string) =>
      p.Estado === 'A' && p.FechaInicio <= day && day <= p.FechaFin && fed.has(Number(p.IdCompania));
    const documents = [...new Set(people.map((p) => p.Documento))];
    const strangers = [
      ...new Set(
        people.filter((p) => !fed.has(Number(p.IdCompania)) || p.Estado !== 'A').map((p) => p.Documento),
      ),
      'DEMO0001',
      'DEMO0002',
    ];
    const loaded = new Map<string, Promise<MealLoaded>>();
    const present = async (Documento: string, at: number, index: number) => {
      if (at > now) return;
      const presented: MealPresented = { kind: 'document', Documento };
      let diner = loaded.get(Documento);
      if (!diner) {
        diner = loadDiner(trx, tables, room.IdCliente, room.IdDivision, presented);
        loaded.set(Documento, diner);
      }
      await recordMeal(
        trx,
        tables,
        {
          room: { ...room, timeZone: zone },
          presented,
          at: new Date(at),
          deviceMarkId: `demo-${room.IdComedor}-${index}`,
          doubtful: false,
          online: true,
          origin: 'E',
          equipmentId: room.IdEquipo,
          userId: `EQUIPO:${room.IdEquipo}`,
        },
        await diner,
        site,
      );
      meals++;
    };
    const today = siteDate(country?.IdPais, now);
    let index = 0;
    const services = site.services.filter((s) => s.Activo === 'S').sort((a, b) => a.Orden - b.Orden);
    for (let back = 6; back >= 0; back--) {
      const day = addDays(today, -back);
      for (const [s, service] of services.entries()) {
        const start = minutesOf(service.HoraInicio);
        // The night meal only some nights, and by fewer people.
        const night = start > minutesOf(service.HoraFin);
        for (const [p, Documento] of documents.entries()) {
          if (!people.some((r) => r.Documento === Documento && eats(r, day))) continue;
          if (night && (p + back) % 3 !== 0) continue;
          // A rest day a week for each worker.
          if ((p + back) % 7 === 6) continue;
          const minute = start + ((p * 7 + s * 11 + back * 5) % 50);
          await present(Documento, instantAt(day, minute, zone), index++);
        }
        // A second lunch, and a late one after the contractors' hours (the service still open).
        if (service.Descripcion === 'ALMUERZO' && documents.length > 2) {
          await present(documents[back % documents.length], instantAt(day, start + 60, zone), index++);
          await present(
            documents[(back + 1) % documents.length],
            instantAt(day, minutesOf(service.HoraFin) - 20, zone),
            index++,
          );
        }
      }
      // Someone at an hour with no service, and someone who is refused whatever the hour.
      await present(documents[back % documents.length], instantAt(day, 10 * 60, zone), index++);
      await present(strangers[back % strangers.length], instantAt(day, 12 * 60 + 40, zone), index++);
    }
  }
  return { consumption: meals };
}
