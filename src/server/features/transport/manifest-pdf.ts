import PDFDocument from 'pdfkit';
import type { Language } from '../../../shared/constants.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { t as say } from '../../i18n.js';
import { tripDetail, vehicleDocuments } from './detail.js';
import type { TransportOffice } from './office.js';
import type { TransportTables } from './tables.js';

const COLUMNS = [
  { key: 'seat', width: 34 },
  { key: 'name', width: 150 },
  { key: 'document', width: 70 },
  { key: 'company', width: 90 },
  { key: 'emergency', width: 139 },
] as const;

/**
 * A trip's manifest, the legal passenger list of the bus: route, date and hour, the bus (plate,
 * model, its documents and their validity) and the driver (document, licence), then every booked or
 * boarded passenger by seat with their document, company and emergency contact. A4, in the reader's language.
 */
export async function manifestPdf(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  id: number,
  language: Language,
) {
  const trip = await tripDetail(db, t, office, id);
  const documents = await vehicleDocuments(db, t, office, trip.IdVehiculo);
  const label = (key: string, params?: Record<string, string | number>) =>
    say(language, `transport.manifest.${key}`, params);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: label('title') } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.fillColor('#0D3B66').fontSize(16).text(label('title'));
  doc.fillColor('#000000').fontSize(10).moveDown(0.3);
  doc.text(`${label('route')}: ${trip.RutaCodigo} · ${trip.Ruta}`);
  doc.text(`${label('when')}: ${dmy(trip.Fecha)} ${trip.Hora}   ${label('trip')}: ${trip.IdViaje}`);
  doc.text(`${label('bus')}: ${trip.Placa} ${trip.Modelo}   ${label('seats')}: ${trip.Asientos}`);
  for (const d of documents)
    doc.text(`   ${d.Requisito}: ${d.Vence ? label('validUntil', { date: dmy(d.Vence) }) : '—'}`);
  doc.text(
    `${label('driver')}: ${trip.Conductor} · ${trip.ConductorDocumento} · ${label('licence')} ${trip.ConductorLicencia}`,
  );
  doc.moveDown(0.6);
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = 40;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    let height = 0;
    cells.forEach((cell, i) => {
      doc.text(cell, x, y, { width: COLUMNS[i].width - 4 });
      height = Math.max(height, doc.y - y);
      x += COLUMNS[i].width;
    });
    doc.x = 40;
    doc.y = y + height + 3;
    if (doc.y > doc.page.height - 60) doc.addPage();
  };
  row(
    COLUMNS.map((c) => label(c.key)),
    true,
  );
  const aboard = trip.reservas.filter((r) => r.Estado === 'R' || r.Estado === 'A');
  for (const r of aboard) row([String(r.Asiento), r.Persona, r.Documento, r.Compania, r.Emergencia || '—']);
  doc
    .moveDown(0.5)
    .font('Helvetica')
    .fontSize(9)
    .text(label('total', { n: aboard.length, seats: trip.Asientos }), 40);
  doc.end();
  await done;
  return { buffer: Buffer.concat(chunks), trip };
}
