import type { Db } from '../../db/connection.js';
import type { Site } from './fleet.js';
import type { TransportOffice } from './office.js';
import { day, nameOf, type Row, type TransportTables, text } from './tables.js';
import { tripOf } from './trips.js';

/** A trip's bus (plate, seats) and driver (name, document, licence), as the screens and the manifest show them. */
export async function crewOf(db: Db, t: TransportTables, busId: number, driverId: number) {
  const bus = (await db
    .selectFrom(`${t.bus} as b`)
    .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'b.IdVehiculo')
    .leftJoin(`${t.licence} as l`, 'l.IdLicenciaConducir', 'b.IdLicenciaConducir')
    .select(['b.IdVehiculo', 'h.Placa', 'h.Modelo', 'l.Categoria'])
    .where('b.IdBus', '=', busId)
    .executeTakeFirst()) as Row | undefined;
  const driver = (await db
    .selectFrom(`${t.person} as p`)
    .leftJoin(`${t.licence} as l`, 'l.IdLicenciaConducir', 'p.IdLicenciaConducir')
    .select(['p.Apellido', 'p.Nombre', 'p.Documento', 'p.NumeroLicenciaConducir', 'l.Categoria'])
    .where('p.IdPersona', '=', driverId)
    .executeTakeFirst()) as Row | undefined;
  return {
    IdVehiculo: Number(bus?.IdVehiculo ?? 0),
    Placa: text(bus?.Placa),
    Modelo: text(bus?.Modelo),
    LicenciaRequerida: text(bus?.Categoria),
    Conductor: driver ? nameOf(driver) : '',
    ConductorDocumento: text(driver?.Documento),
    ConductorLicencia: `${text(driver?.Categoria)} ${text(driver?.NumeroLicenciaConducir)}`.trim(),
  };
}

/** A vehicle's accredited requirements with their latest expiry (SOAT, inspection), for the manifest. */
export async function vehicleDocuments(db: Db, t: TransportTables, site: Site, vehicleId: number) {
  const rows = (await db
    .selectFrom(`${t.accredited} as a`)
    .innerJoin(`${t.requirement} as r`, 'r.IdRequisito', 'a.IdRequisito')
    .select(['r.Requisito', 'a.FechaVencimiento'])
    .where('a.IdCliente', '=', site.clientId)
    .where('a.IdVehiculo', '=', vehicleId)
    .execute()) as Row[];
  const latest = new Map<string, string>();
  for (const r of rows) {
    const until = r.FechaVencimiento ? day(r.FechaVencimiento) : '';
    const name = text(r.Requisito);
    if (!latest.has(name) || until > (latest.get(name) ?? '')) latest.set(name, until);
  }
  return [...latest].map(([Requisito, Vence]) => ({ Requisito, Vence }));
}

/**
 * A trip with its bus and driver and its bookings of every state (booked, boarded, no-show,
 * released with the reason), named with their company, seat and emergency contact; a requester's:
 * its company's bookings only.
 */
export async function tripDetail(db: Db, t: TransportTables, office: TransportOffice, id: number) {
  const trip = await tripOf(db, t, office, id);
  let q = db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
    .select([
      'b.IdReserva',
      'b.IdPersona',
      'b.IdCompania',
      'b.Asiento',
      'b.Estado',
      'b.Excepcion',
      'b.Motivo',
      'b.FechaAbordaje',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'p.EmergenciaNombre',
      'p.EmergenciaTelefono',
      'm.Alias',
    ])
    .where('b.IdViaje', '=', id)
    .orderBy('b.Asiento');
  if (office.companyId !== undefined) q = q.where('b.IdCompania', '=', office.companyId);
  const rows = (await q.execute()) as Row[];
  return {
    ...trip,
    ...(await crewOf(db, t, trip.IdBus, trip.IdConductor)),
    reservas: rows.map((r) => ({
      IdReserva: Number(r.IdReserva),
      IdPersona: Number(r.IdPersona),
      Persona: nameOf(r),
      Documento: text(r.Documento),
      Compania: text(r.Alias),
      Asiento: Number(r.Asiento),
      Estado: text(r.Estado),
      Excepcion: r.Excepcion === 'S',
      Motivo: r.Motivo ? text(r.Motivo) : null,
      FechaAbordaje: r.FechaAbordaje ? text(r.FechaAbordaje) : null,
      Emergencia: `${text(r.EmergenciaNombre)} ${text(r.EmergenciaTelefono)}`.trim(),
    })),
  };
}
