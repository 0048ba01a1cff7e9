/**
 * The demo's camps filled out: rooms and beds up to about 600 beds in the two active camps (bunk
 * rooms of hot beds for the crews, double rooms, exclusive supervision suites), and stays for the
 * demo's accredited workers — some checked in (a pair sharing a hot bed by day and night turns,
 * one overstaying), some arriving today and tomorrow. Deterministic, like the rest of the demo.
 */
import { addDays, siteDate } from '../../../shared/dates.js';
import { type LodgingTurn, nightsOf, placePeople } from '../../../shared/hotel.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { campBeds } from './beds.js';
import { isRefusal, type Lodger, lodgers } from './eligibility.js';
import type { CampOffice } from './office.js';
import { type Placed, Stays } from './stays.js';

type Row = Record<string, unknown>;

/** The rooms added to each block: number prefix, floor, first and last number, room type, exclusive beds. */
const ROOMS: Record<
  string,
  Array<{ prefix: string; floor: number; from: number; to: number; type: string; exclusive?: boolean }>
> = {
  'PABELLÓN A': [
    { prefix: 'A-1', floor: 1, from: 3, to: 30, type: 'CUÁDRUPLE' },
    { prefix: 'A-2', floor: 2, from: 2, to: 30, type: 'CUÁDRUPLE' },
  ],
  'PABELLÓN B': [
    { prefix: 'B-1', floor: 1, from: 2, to: 20, type: 'DOBLE' },
    { prefix: 'B-2', floor: 2, from: 1, to: 20, type: 'DOBLE' },
  ],
  'PABELLÓN SUPERVISIÓN': [
    { prefix: 'S-', floor: 1, from: 2, to: 20, type: 'SUITE SUPERVISIÓN', exclusive: true },
  ],
  'MÓDULO 1': [
    { prefix: 'M1-1', floor: 1, from: 3, to: 30, type: 'CUÁDRUPLE' },
    { prefix: 'M1-2', floor: 2, from: 2, to: 25, type: 'DOBLE' },
  ],
  'MÓDULO 2': [{ prefix: 'M2-1', floor: 1, from: 3, to: 40, type: 'DOBLE' }],
};

const BUNKS = ['CAMAROTE INFERIOR', 'CAMAROTE SUPERIOR'];

export async function seedDemoLodging(trx: Db, registry: Registry, clientId: number, now = Date.now()) {
  const table = (name: string) => registry.require(name).table;
  const at = new Date(now).toISOString();
  const audit = { IdUsuarioCreacion: 'SISTEMA', FechaCreacion: at };
  const types = new Map(
    (
      (await trx
        .selectFrom(table('room-type'))
        .select(['IdTipoHabitacion', 'Descripcion', 'NumeroCamas'])
        .where('IdCliente', '=', clientId)
        .execute()) as Row[]
    ).map((r) => [String(r.Descripcion), { id: Number(r.IdTipoHabitacion), beds: Number(r.NumeroCamas) }]),
  );
  const bedTypes = new Map(
    (
      (await trx
        .selectFrom(table('bed-type'))
        .select(['IdTipoCama', 'Descripcion'])
        .where('IdCliente', '=', clientId)
        .execute()) as Row[]
    ).map((r) => [String(r.Descripcion), Number(r.IdTipoCama)]),
  );
  const modules = (await trx
    .selectFrom(`${table('hotel-module')} as m`)
    .innerJoin(`${table('camp')} as c`, 'c.IdCampamento', 'm.IdCampamento')
    .select(['m.IdModuloHotel', 'm.IdDivision', 'm.Descripcion', 'c.IdCampamento', 'c.Activo'])
    .where('m.IdCliente', '=', clientId)
    .execute()) as Row[];
  let beds = 0;
  for (const module of modules) {
    if (module.Activo !== 'S') continue;
    for (const plan of ROOMS[String(module.Descripcion)] ?? []) {
      const type = types.get(plan.type);
      if (!type) continue;
      for (let n = plan.from; n <= plan.to; n++) {
        const Numero = `${plan.prefix}${String(n).padStart(2, '0')}`;
        const room = (await trx
          .insertInto(table('room'))
          .values({
            IdCliente: clientId,
            IdDivision: module.IdDivision,
            IdModuloHotel: module.IdModuloHotel,
            IdTipoHabitacion: type.id,
            Numero,
            Piso: plan.floor,
            BanoPrivado: plan.exclusive ? 'S' : 'N',
            Activo: 'S',
            ...audit,
          })
          .returning('IdHabitacion')
          .executeTakeFirstOrThrow()) as Row;
        const rows = Array.from({ length: type.beds }, (_, i) => ({
          IdCliente: clientId,
          IdDivision: module.IdDivision,
          IdHabitacion: room.IdHabitacion,
          IdTipoCama: bedTypes.get(
            type.beds === 4 ? BUNKS[i % 2] : type.beds === 1 ? 'DOS PLAZAS' : 'PLAZA Y MEDIA',
          ),
          Codigo: `${Numero}-${'ABCD'[i]}`,
          Exclusiva: plan.exclusive ? 'S' : 'N',
          // One room in twenty is being repaired.
          Activo: n % 20 === 7 ? 'N' : 'S',
          ...audit,
        }));
        await trx.insertInto(table('bed')).values(rows).execute();
        beds += rows.length;
      }
    }
  }
  return { bed: beds, reservation: await seedStays(trx, registry, clientId, now) };
}

/** Stays for each active camp's accredited workers (those of the companies its profiles take). */
async function seedStays(trx: Db, registry: Registry, clientId: number, now: number): Promise<number> {
  const table = (name: string) => registry.require(name).table;
  const stays = new Stays(trx, registry, () => now);
  const camps = (await trx
    .selectFrom(`${table('camp')} as c`)
    .innerJoin(`${table('division')} as d`, 'd.IdDivision', 'c.IdDivision')
    .select([
      'c.IdCampamento',
      'c.IdDivision',
      'c.Descripcion',
      'c.DiasMaximoEstadia',
      'c.LiberarReserva',
      'c.DiasLiberarReserva',
      'c.HoraSalida',
      'd.IdPais',
    ])
    .where('c.IdCliente', '=', clientId)
    .where('c.Activo', '=', 'S')
    .execute()) as Row[];
  let count = 0;
  for (const camp of camps) {
    const today = siteDate(camp.IdPais as string, now);
    const office: CampOffice = {
      clientId,
      divisionId: Number(camp.IdDivision),
      userId: 'SISTEMA',
      camps: new Set([Number(camp.IdCampamento)]),
      principal: { userId: 'SISTEMA', clientId, divisionId: Number(camp.IdDivision) },
    };
    const people = (await trx
      .selectFrom(table('accreditation'))
      .select('IdPersona')
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', office.divisionId)
      .where('IdEntidad', '=', 'T')
      .where('Estado', '=', 'A')
      .orderBy('IdPersona')
      .execute()) as Row[];
    const ids = [...new Set(people.map((p) => Number(p.IdPersona)))];
    const beds = (await campBeds(trx, registry, clientId, [Number(camp.IdCampamento)])).filter(
      (b) => b.EnServicio,
    );
    const taken = new Set<string>();
    const placed: Array<Placed & { state: 'R' | 'I' }> = [];
    // Checked in since three days ago for ten nights; the last few arrive today or tomorrow.
    const plans: Array<{ from: string; to: string; state: 'R' | 'I'; turn: LodgingTurn }> = ids.map(
      (_, i) => {
        if (i % 6 === 4) return { from: today, to: addDays(today, 10), state: 'R', turn: 'C' };
        if (i % 6 === 5) return { from: addDays(today, 1), to: addDays(today, 12), state: 'R', turn: 'C' };
        // Two of them share hot beds: one sleeps by day (night turn worker), the other by night.
        if (i === 1) return { from: addDays(today, -3), to: addDays(today, 7), state: 'I', turn: 'D' };
        if (i === 2) return { from: addDays(today, -3), to: addDays(today, 7), state: 'I', turn: 'N' };
        // One should have left yesterday: an overstay.
        if (i === 3) return { from: addDays(today, -6), to: addDays(today, -1), state: 'I', turn: 'C' };
        return { from: addDays(today, -3), to: addDays(today, 7), state: 'I', turn: 'C' };
      },
    );
    for (const [i, id] of ids.entries()) {
      const plan = plans[i];
      const grounds = (await lodgers(trx, registry, office, camp as never, [id], plan.from, plan.to)).get(id);
      if (!grounds || isRefusal(grounds)) continue;
      const lodger = grounds as Lodger;
      const place = placePeople(
        plan.turn === 'C' ? beds : beds.filter((b) => !b.Exclusiva),
        [{ IdPersona: id, Sexo: lodger.Sexo, IdTipoHabitacion: lodger.IdTipoHabitacion, Turno: plan.turn }],
        nightsOf(plan.from, plan.to),
        taken,
      ).get(id);
      const bed = beds.find((b) => b.IdCama === place);
      if (!bed) continue;
      placed.push({ lodger, bed, turn: plan.turn, from: plan.from, to: plan.to, state: plan.state });
    }
    const rows = await stays.write(trx, office, Number(camp.IdCampamento), placed, 'M', 'DEMO');
    for (const [i, row] of rows.entries()) {
      if (placed[i].state !== 'I') continue;
      await trx
        .updateTable(table('reservation'))
        .set({ Estado: 'I', FechaIngreso: `${placed[i].from}T18:30:00.000Z` })
        .where('IdReserva', '=', row.IdReserva as number)
        .execute();
    }
    count += rows.length;
  }
  return count;
}
