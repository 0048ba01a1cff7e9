import { strToU8, zipSync } from 'fflate';
import { isSensitive, SENSITIVE_CLASSES } from '../../../shared/data-classes.js';
import type { Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { PersonalDataSource } from '../../personal-data.js';
import type { Principal } from '../../principal.js';
import type { Entity, Registry } from '../../registry.js';
import { textPdf } from '../../services/pdf.js';
import { logSensitiveReads, personKey, readsOf, type SensitiveRead } from '../../services/privacy.js';
import type { FileStore } from '../../storage/files.js';

/** What the export reads with: the database, the schemas, the file store and every area's records. */
export interface ExportDeps {
  db: Db;
  registry: Registry;
  files: FileStore;
  sources: readonly PersonalDataSource[];
}

/** The entities whose records name a person: the person, and every one with an `IdPersona`. */
export function entitiesNaming(registry: Registry): Entity[] {
  return registry.entities.filter((e) => personKey(e) !== undefined);
}

const safe = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 80);
const IMAGE = /^data:image\/(png|jpeg);base64,(.*)$/s;

/**
 * Everything the client holds about one person, for their access request (Ley 29733 art. 19, Ley
 * 21.719 art. 5): a ZIP of one JSON file per table that names them (`datos/<resource>.json`, every
 * entity with an `IdPersona`, the access log of their sensitive data among them) and what the
 * areas hold in records that do not name them (a request's lines); their files and pictures under
 * `archivos/`; and `resumen.pdf`, a readable summary. Whoever makes it reads the person's health and
 * criminal-record data, so only a profile that reads both may, and each value is logged.
 */
export async function personExport(
  deps: ExportDeps,
  principal: Principal,
  person: number,
  origin: string,
): Promise<{ zip: Buffer; name: string }> {
  const { db, registry } = deps;
  if (!SENSITIVE_CLASSES.every((c) => principal.sensitive?.has(c)))
    throw new ApiError('FORBIDDEN', { messageKey: 'privacy.exportNeedsSensitive' });
  const client = principal.clientId as number;
  const tables: Record<string, Row[]> = {};
  for (const entity of entitiesNaming(registry)) {
    let qb = db
      .selectFrom(entity.table)
      .selectAll()
      .where(personKey(entity) as string, '=', person);
    if (entity.scope.client) qb = qb.where(entity.scope.client, '=', client);
    const rows = (await qb.orderBy(entity.primaryKey).execute()) as Row[];
    for (const row of rows) for (const secret of entity.secrets) delete row[secret];
    tables[entity.name] = rows;
  }
  if (!tables.person?.length) throw new ApiError('NOT_FOUND', { params: { resource: 'person', id: person } });
  for (const source of deps.sources)
    for (const [name, rows] of Object.entries((await source.export?.(db, client, person)) ?? {}))
      tables[name] = [...(tables[name] ?? []), ...rows];

  const entries: Record<string, Uint8Array> = {};
  const reads: SensitiveRead[] = [];
  for (const [name, rows] of Object.entries(tables)) {
    const entity = registry.require(name);
    for (const row of rows) {
      const id = row[entity.primaryKey];
      for (const field of entity.images) {
        const picture = typeof row[field] === 'string' ? IMAGE.exec(row[field] as string) : null;
        if (!picture) continue;
        const path = `archivos/${name}/${id}-${field}.${picture[1] === 'jpeg' ? 'jpg' : 'png'}`;
        entries[path] = Buffer.from(picture[2], 'base64');
        row[field] = path;
      }
      if (typeof row.ClaveArchivo === 'string') {
        const bytes = await deps.files.get(row.ClaveArchivo);
        if (bytes) entries[`archivos/${name}/${id}-${safe(String(row.NombreArchivo ?? 'archivo'))}`] = bytes;
      }
      // A requirement's line holds data of its requirement's class (`ClaseDato`).
      const rowClass = row.ClaseDato as string | undefined;
      const lineFields = isSensitive(rowClass)
        ? ['Valor', 'ClaveArchivo'].map((field) => ({ field, dataClass: rowClass }))
        : [];
      reads.push(...readsOf(entity, [row], [...entity.sensitive, ...lineFields], person));
    }
    entries[`datos/${name}.json`] = strToU8(JSON.stringify(rows, null, 2));
  }
  entries['resumen.pdf'] = summary(tables, person);
  await logSensitiveReads(db, registry, reads, principal, origin);
  const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  return {
    zip: Buffer.from(zipSync(entries, { level: 6 })),
    name: `datos-personales-${person}-${stamp}.zip`,
  };
}

/** The readable summary: who, then each table with its records, then who read their sensitive data. */
function summary(tables: Record<string, Row[]>, person: number): Buffer {
  const [who] = tables.person;
  const lines = [
    `Persona ${person}: ${who.Apellido ?? ''} ${who.Nombre ?? ''} (documento ${who.Documento ?? ''})`,
    `Exportado el ${new Date().toISOString().slice(0, 19).replace('T', ' ')} UTC`,
    '',
    '# Datos por tabla',
  ];
  for (const [name, rows] of Object.entries(tables))
    if (name !== 'sensitive-access') lines.push(`${name}: ${rows.length} registro(s)`);
  lines.push('', '# Accesos a sus datos sensibles');
  const log = tables['sensitive-access'] ?? [];
  if (!log.length) lines.push('Ninguno.');
  for (const row of log)
    lines.push(
      `${String(row.Fecha).slice(0, 19).replace('T', ' ')} ${row.IdUsuario}: ${row.Campo} (${row.ClaseDato}) desde ${row.Origen}`,
    );
  return textPdf('Datos personales', lines);
}
