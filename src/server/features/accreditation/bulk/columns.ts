import {
  type EntityCode,
  PERSON_FIELDS,
  VEHICLE_FIELDS,
  VISITOR_FIELDS,
} from '../../../../shared/accreditation.js';
import type { Language } from '../../../../shared/constants.js';
import { fieldRuleEffects } from '../../../../shared/rules.js';
import { fieldRules } from '../../../crud/checks.js';
import { confine } from '../../../crud/scope.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { t } from '../../../i18n.js';
import type { Principal } from '../../../principal.js';
import type { Registry } from '../../../registry.js';
import type { ProfileDef } from '../catalogue.js';

export type BulkKind = 'text' | 'number' | 'date' | 'list';

/** One column of a bulk upload's template: a request field, a holder's field or a requirement's datum. */
export interface BulkColumn {
  /** The request body's field, or `D<IdDatoEvaluar>` for a requirement's datum. */
  key: string;
  header: string;
  required: boolean;
  kind: BulkKind;
  /** A list's choices: the stored value and the text the user picks, in the user's language. */
  choices?: Array<{ value: string | number; label: string }>;
  /** The datum a `D…` column fills. */
  datum?: number;
  /** The value's JSON type in the request body. */
  json: 'string' | 'integer' | 'number';
}

/** The request's own fields a row carries (the contract and profile are the template's). */
const HEADER_COLUMNS = [
  'FechaInicio',
  'FechaFin',
  'IdUnidadOrganizativa',
  'IdCentroCosto',
  'IdPosicion',
  'IdFuncion',
];
/**
 * What a bulk row is about, by the profile's entity: its request's fields (and those of them the
 * kind requires beyond the schema's own), and its holder's. A visit's row: its dates and reason,
 * then its one visitor.
 */
const ROW_SHAPE = {
  T: { header: HEADER_COLUMNS, required: [], holder: 'person', fields: PERSON_FIELDS },
  V: { header: HEADER_COLUMNS, required: [], holder: 'vehicle', fields: VEHICLE_FIELDS },
  P: {
    header: ['FechaInicio', 'FechaFin', 'MotivoVisita'],
    required: ['MotivoVisita'],
    holder: 'visit-person',
    fields: VISITOR_FIELDS,
  },
} as const;
export type BulkEntity = keyof typeof ROW_SHAPE;
export const isBulkEntity = (entity: unknown): entity is BulkEntity =>
  typeof entity === 'string' && entity in ROW_SHAPE;

/**
 * A visit's row as the single visit's body: the row's visitor is the visit's one visitor, and its
 * data are that visitor's (by document).
 */
export function asVisit(body: Row): Row {
  const visitor = Object.fromEntries(VISITOR_FIELDS.filter((f) => f in body).map((f) => [f, body[f]]));
  const rest = Object.fromEntries(
    Object.entries(body).filter(([f]) => !(VISITOR_FIELDS as readonly string[]).includes(f)),
  );
  const detail = JSON.parse(String(body.Detalle ?? '[]')) as Row[];
  return {
    ...rest,
    Visitantes: [visitor],
    Detalle: JSON.stringify(detail.map((line) => ({ ...line, Documento: visitor.Documento }))),
  };
}

/** The most choices one reference column lists. */
const MAX_CHOICES = 5000;

/** The key a holder is known by in the file: the person's document or the vehicle's plate. */
export const identityKey = (entity: EntityCode, body: Row): string | undefined => {
  if (entity === 'V')
    return body.Placa === undefined ? undefined : String(body.Placa).trim().toLocaleUpperCase('es');
  if (body.Documento === undefined || body.IdTipoDocumento === undefined) return undefined;
  return `${body.IdTipoDocumento}:${String(body.Documento).trim().toLocaleUpperCase('es')}`;
};

/**
 * The template's columns for a profile, in order: the request's dates and organisational data,
 * the holder's fields (a person's or a vehicle's, but the cascading ubigeo ones), then one per
 * datum the requester fills (group headings and authorisers' requirements left out). References
 * and enums carry their choices as the caller may see them, in the caller's language.
 */
export async function bulkColumns(
  db: Db,
  registry: Registry,
  principal: Principal,
  profile: ProfileDef,
  language: Language,
): Promise<BulkColumn[]> {
  const request = registry.require('request');
  const shape = ROW_SHAPE[isBulkEntity(profile.IdEntidad) ? profile.IdEntidad : 'T'];
  const holder = registry.require(shape.holder);
  const fields: Array<[typeof request, string]> = [
    ...shape.header.map((f) => [request, f] as [typeof request, string]),
    ...(shape.fields as readonly string[])
      .filter((f) => holder.schema.properties[f] && holder.schema.properties[f]['x-widget'] !== 'ubigeo')
      .map((f) => [holder, f] as [typeof request, string]),
  ];
  // The client's field rules make more of the holder's fields mandatory, as in the single form.
  const ruled = new Set(
    fieldRuleEffects(await fieldRules(db, registry, holder, principal), holder.writable).required,
  );
  const choicesCache = new Map<string, BulkColumn['choices']>();
  const columns: BulkColumn[] = [];
  for (const [entity, field] of fields) {
    const prop = entity.schema.properties[field];
    const required =
      (entity.schema.required ?? []).includes(field) ||
      (entity === holder && ruled.has(field)) ||
      (entity === request && (shape.required as readonly string[]).includes(field));
    const header = t(language, `resources.${entity.name}.fields.${field}`);
    const json = prop.type === 'integer' ? 'integer' : prop.type === 'number' ? 'number' : 'string';
    const ref = entity.references.find((r) => r.field === field);
    if (ref) {
      let choices = choicesCache.get(ref.target);
      if (!choices) {
        choices = await referenceChoices(db, registry, principal, ref.target);
        choicesCache.set(ref.target, choices);
      }
      columns.push({ key: field, header, required, kind: 'list', choices, json });
    } else if (prop.enum && prop['x-enum']) {
      const name = prop['x-enum'];
      columns.push({
        key: field,
        header,
        required,
        kind: 'list',
        json,
        choices: (prop.enum as Array<string | number>).map((value) => ({
          value,
          label: t(language, `enums.${name}.${value}`),
        })),
      });
    } else
      columns.push({
        key: field,
        header,
        required,
        json,
        kind: prop.format === 'date' ? 'date' : json === 'string' ? 'text' : 'number',
      });
  }
  const yes = t(language, 'enums.yesNo.S');
  const no = t(language, 'enums.yesNo.N');
  for (const requirement of profile.requirements) {
    if (requirement.TipoRequisito !== 'S') continue;
    for (const datum of requirement.data) {
      if (datum.Tipo === 'G') continue;
      const base = {
        key: `D${datum.IdDatoEvaluar}`,
        header: `${requirement.Requisito} — ${datum.DatoEvaluar}`,
        required:
          requirement.Obligatorio === 'S' && datum.DatoOpcional !== 'S' && datum.AdjuntarArchivo !== 'S',
        datum: datum.IdDatoEvaluar,
        json: 'string' as const,
      };
      if (datum.Tipo === 'L')
        columns.push({
          ...base,
          kind: 'list',
          choices: datum.choices.map((c) => ({ value: c.IdDato, label: c.Dato })),
        });
      else if (datum.Tipo === 'B')
        columns.push({
          ...base,
          kind: 'list',
          choices: [
            { value: 'S', label: yes },
            { value: 'N', label: no },
          ],
        });
      else
        columns.push({ ...base, kind: datum.Tipo === 'F' ? 'date' : datum.Tipo === 'N' ? 'number' : 'text' });
    }
  }
  // A label that two choices share gets the value beside it, so every text picks one value.
  for (const column of columns) {
    if (!column.choices) continue;
    const seen = new Map<string, number>();
    for (const c of column.choices) seen.set(c.label, (seen.get(c.label) ?? 0) + 1);
    column.choices = column.choices.map((c) =>
      (seen.get(c.label) ?? 0) > 1 ? { ...c, label: `${c.label} (${c.value})` } : c,
    );
  }
  return columns;
}

/** A reference's active records the caller may see, as value and label. */
async function referenceChoices(
  db: Db,
  registry: Registry,
  principal: Principal,
  target: string,
): Promise<NonNullable<BulkColumn['choices']>> {
  const entity = registry.require(target);
  const label = entity.label.length ? entity.label : [entity.primaryKey];
  let qb = db.selectFrom(entity.table).select([entity.primaryKey, ...label]);
  if (entity.schema.properties.Activo) qb = qb.where('Activo', '=', 'S');
  qb = confine(registry, qb as never, entity, principal) as typeof qb;
  const rows = (await qb
    .orderBy(label[label.length - 1])
    .limit(MAX_CHOICES)
    .execute()) as Row[];
  return rows.map((row) => ({
    value: row[entity.primaryKey] as string | number,
    label: label
      .map((f) => row[f])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(' '),
  }));
}
