import { sign, verify } from 'node:crypto';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { base64url, fromBase64url } from '../../../shared/badge-token.js';
import type { Language } from '../../../shared/constants.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { t as say } from '../../i18n.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, type Row, text } from './tables.js';

/**
 * The token a certificate's QR carries: `IN1.<payload>.<signature>`, the payload base64url of
 * `IdCliente|IdRegistro|IdPersona|IdCurso|VenceEl`, signed with the server's Ed25519 key (the
 * badges' and allow-lists' key). The verification call checks the signature, then the record as it
 * stands now (a revoked or expired induction is said so).
 */
const PREFIX = 'IN1';

export async function certificateToken(db: Db, record: Row): Promise<string> {
  const payload = [
    record.IdCliente,
    record.IdRegistro,
    record.IdPersona,
    record.IdCurso,
    text(record.VenceEl).slice(0, 10),
  ].join('|');
  const bytes = Buffer.from(payload, 'utf8');
  const signature = sign(null, bytes, (await signingKeys(db)).signer);
  return `${PREFIX}.${base64url(bytes)}.${base64url(signature)}`;
}

/** The record's id a genuine token of this client names, or undefined. */
async function tokenRecord(db: Db, token: string, clientId: number): Promise<number | undefined> {
  const [prefix, body, sig] = token.trim().split('.');
  const bytes = prefix === PREFIX && body ? fromBase64url(body) : undefined;
  const signature = sig ? fromBase64url(sig) : undefined;
  if (!bytes || !signature || signature.length !== 64) return undefined;
  const keys = await signingKeys(db);
  if (!verify(null, bytes, keys.publicKey, signature)) return undefined;
  const [client, record] = Buffer.from(bytes).toString('utf8').split('|');
  return Number(client) === clientId ? Number(record) : undefined;
}

/** A record of the office's client (a requester's: its company's), named, with its course and trainer. */
export async function recordOf(
  db: Db,
  t: InductionTables,
  office: Pick<InductionOffice, 'clientId' | 'divisionId' | 'companyId'>,
  id: number,
) {
  let query = db
    .selectFrom(`${t.record} as r`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'r.IdPersona')
    .innerJoin(`${t.course} as c`, 'c.IdCurso', 'r.IdCurso')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'r.IdCompania')
    .leftJoin(`${t.user} as u`, 'u.IdUsuario', 'r.IdInstructor')
    .select([
      'r.IdRegistro',
      'r.IdCliente',
      'r.IdDivision',
      'r.IdPersona',
      'r.IdCurso',
      'r.Fecha',
      'r.Nota',
      'r.VenceEl',
      'r.Estado',
      'r.Modalidad',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'c.Codigo',
      'c.Nombre as Curso',
      'c.NombreIngles as CursoIngles',
      'c.Horas',
      'm.Compania',
      'u.Nombre as InstructorNombre',
      'u.Apellido as InstructorApellido',
    ])
    .where('r.IdRegistro', '=', id)
    .where('r.IdCliente', '=', office.clientId)
    .where('r.IdDivision', '=', office.divisionId);
  if (office.companyId !== undefined) query = query.where('r.IdCompania', '=', office.companyId);
  const row = (await query.executeTakeFirst()) as Row | undefined;
  if (!row) throw new ApiError('NOT_FOUND', { params: { resource: 'induction-record', id } });
  return row;
}

/** Whether a certificate's token is genuine, and the induction it names as it stands today. */
export async function verifyCertificate(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  token: string,
  today: string,
) {
  const id = await tokenRecord(db, token, office.clientId);
  if (id === undefined) return { genuine: false, valid: false, reason: 'FORGED' };
  // Of the division the caller works in: another division's induction is said to be so, not shown.
  const row = await recordOf(db, t, { clientId: office.clientId, divisionId: office.divisionId }, id).catch(
    (error: unknown) => {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    },
  );
  if (!row) return { genuine: true, valid: false, reason: 'OTHER_DIVISION' };
  const until = text(row.VenceEl).slice(0, 10);
  const reason = row.Estado === 'R' ? 'REVOKED' : until < today ? 'EXPIRED' : 'VALID';
  return {
    genuine: true,
    valid: reason === 'VALID',
    reason,
    IdRegistro: id,
    Persona: `${text(row.Apellido)} ${text(row.Nombre)}`,
    Documento: text(row.Documento),
    Curso: text(row.Curso),
    CursoIngles: text(row.CursoIngles),
    Fecha: text(row.Fecha).slice(0, 10),
    VenceEl: until,
  };
}

/** The certificate of a passed induction: an A4 page in the reader's language, with the signed QR. */
export async function certificatePdf(db: Db, row: Row, language: Language): Promise<Buffer> {
  const token = await certificateToken(db, row);
  const qr = await bwipjs.toBuffer({ bcid: 'qrcode', text: token, scale: 4 });
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: say(language, 'induction.certificate.title') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const label = (key: string) => say(language, `induction.certificate.${key}`);
  doc.fillColor('#0D3B66').fontSize(22).text(label('title'), { align: 'center' });
  doc.moveDown(0.5).fillColor('#333333').fontSize(11).text(label('states'), { align: 'center' });
  doc
    .moveDown(1)
    .fillColor('#000000')
    .fontSize(18)
    .text(`${text(row.Apellido)} ${text(row.Nombre)}`, { align: 'center' });
  doc
    .fontSize(11)
    .text(`${label('document')}: ${text(row.Documento)}   ${label('company')}: ${text(row.Compania)}`, {
      align: 'center',
    });
  doc.moveDown(1).fontSize(11).text(label('passed'), { align: 'center' });
  doc
    .moveDown(0.3)
    .fontSize(16)
    .text(`${text(row.Codigo)} · ${text(language === 'en' ? row.CursoIngles : row.Curso)}`, {
      align: 'center',
    });
  doc.moveDown(1).fontSize(11);
  const lines: Array<[string, string]> = [
    [label('date'), dmy(text(row.Fecha).slice(0, 10))],
    [label('score'), `${row.Nota} / 100`],
    [label('hours'), String(row.Horas ?? '')],
    [
      label('trainer'),
      `${text(row.InstructorNombre)} ${text(row.InstructorApellido)}`.trim() || label('online'),
    ],
    [label('validUntil'), dmy(text(row.VenceEl).slice(0, 10))],
    [label('number'), String(row.IdRegistro)],
  ];
  for (const [k, v] of lines) doc.text(`${k}: ${v}`, { align: 'center' });
  doc.image(qr, doc.page.width / 2 - 70, doc.y + 20, { width: 140 });
  doc.text(label('verify'), 56, doc.y + 180, { align: 'center' });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
