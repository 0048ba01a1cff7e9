import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { type DataClass, isSensitive, type SensitiveClass } from '../shared/data-classes.js';
import { MODULES, type ModuleKey } from '../shared/modules.js';
import { REQUEST_KIND_CODES } from '../shared/request-kinds.js';
import { createAjv } from '../shared/schema/ajv.js';
import { PATTERNS } from '../shared/schema/patterns.js';
import type {
  AfterRule,
  EntitySchema,
  LockRule,
  PropertySchema,
  ResourceMeta,
  Scope,
  SortOrder,
  UniqueWhen,
} from '../shared/schema/types.js';
import { CONDITION_PROCEDURES } from '../shared/special-conditions.js';
import { SCHEMAS_DIR } from './paths.js';

export { SCHEMAS_DIR };

const META_SCHEMA_FILE = join(SCHEMAS_DIR, '_meta', 'entity.schema.json');
const DEFAULT_PER_PAGE = 20;

export interface Reference {
  field: string;
  target: string;
  /** A set of references (an array property), kept in its own link table. */
  many?: Link;
  /** Its target is not made readable to this entity's readers (x-ref private). */
  private?: boolean;
  /** This entity's rows are deleted with the referenced record (x-ref goesWith). */
  goesWith?: boolean;
}

/** The table behind an array of references: one row per (owner, value). */
export interface Link {
  table: string;
  /** Column holding the owner's key (named as the owner's key). */
  owner: string;
  /** Column holding the referenced key. */
  value: string;
}

/** Everything the server derives from one schema file. */
export interface Entity {
  name: string;
  file: string;
  module: ModuleKey;
  order: number;
  table: string;
  primaryKey: string;
  generatedKey: boolean;
  /** The schema as written, with named patterns expanded and computed fields marked read-only. */
  schema: EntitySchema;
  label: string[];
  list: string[];
  search: string[];
  filters: string[];
  sortable: string[];
  defaultSort: { field: string; order: SortOrder };
  perPage: number;
  unique: string[][];
  /** Partial unique indexes (x-uniqueWhen): unique among the records that match `when`. */
  uniqueWhen: UniqueWhen[];
  indexes: string[][];
  /** Tenancy: the property of each scope dimension the records carry ({} when global). */
  scope: Scope;
  /** References through which a record without a company of its own belongs to one. */
  companyThrough: string[];
  /** Lists accept the IdCompania filter (x-companyFilter). */
  companyFilter: boolean;
  /** Refers to companies' records without belonging to any (x-scope sharedByCompanies). */
  sharedByCompanies: boolean;
  /** Listed and shown through the API, written only by the server. */
  readOnly: boolean;
  /** The feature whose workflow alone writes these records (x-workflow); the generic API only reads. */
  workflow?: string;
  references: Reference[];
  /** Properties a client may write (not read-only, not generated). */
  writable: string[];
  /** Properties upper-cased before validation. */
  upper: string[];
  /** Properties lower-cased before validation. */
  lower: string[];
  computed: Array<{ field: string; yearsSince: string }>;
  /** Write-only properties (x-widget password): never sent back; left empty on update, kept. */
  secrets: string[];
  /**
   * Pictures kept in the record (x-widget image, a data: URL): sent with one record, left out
   * of lists and exports, and only described in the audit trail.
   */
  images: string[];
  /** Each field's class of personal data (x-dataClass on the field, or the entity's). */
  dataClasses: Record<string, DataClass>;
  /** The fields holding health or criminal-record data, masked for whom may not read them. */
  sensitive: Array<{ field: string; dataClass: SensitiveClass }>;
  /** Menu sub-group inside the module, if any. */
  group?: string;
  /** No menu entry or screen of its own. */
  hidden: boolean;
  /** Path segment of the spec-style lookup calls (obtenerTodos, filtrar). */
  lookup?: string;
  /** Who else may call them: every signed-in user, or per record the screens it names. */
  lookupAccess?: 'signedIn' | { screenField: string };
  after: AfterRule[];
  lockedWhen?: LockRule;
  /** Identity documents and the property holding each one's document type. */
  documents: Array<{ field: string; typeField: string }>;
  validate: ValidateFunction;
}

export class SchemaError extends Error {}

export class Registry {
  readonly entities: Entity[];
  private readonly byName: Map<string, Entity>;

  constructor(entities: Entity[]) {
    this.entities = entities;
    this.byName = new Map(entities.map((e) => [e.name, e]));
  }

  get(name: string): Entity | undefined {
    return this.byName.get(name);
  }

  require(name: string): Entity {
    const entity = this.byName.get(name);
    if (!entity) throw new SchemaError(`unknown resource ${name}`);
    return entity;
  }

  /** Entities whose references point at `name`: who would block its deletion. */
  referencing(name: string): Array<{ entity: Entity; field: string; many?: Link; goesWith?: boolean }> {
    return this.entities.flatMap((entity) =>
      entity.references
        .filter((ref) => ref.target === name)
        .map((ref) => ({ entity, field: ref.field, many: ref.many, goesWith: ref.goesWith })),
    );
  }

  /** Entities ordered so that every entity comes after the ones it references. */
  inDependencyOrder(): Entity[] {
    const done = new Set<string>();
    const out: Entity[] = [];
    const visit = (entity: Entity, path: string[]) => {
      if (done.has(entity.name)) return;
      if (path.includes(entity.name)) return; // a cycle: the nullable reference breaks it
      for (const ref of entity.references) {
        if (ref.target !== entity.name) visit(this.require(ref.target), [...path, entity.name]);
      }
      done.add(entity.name);
      out.push(entity);
    };
    for (const entity of this.entities) visit(entity, []);
    return out;
  }

  /** What the console needs of the resources a profile reaches, with its access to each. */
  meta(access: (entity: Entity) => ResourceMeta['access'] | undefined): ResourceMeta[] {
    return this.entities.flatMap((e) => {
      const level = access(e);
      if (!level) return [];
      return [
        {
          name: e.name,
          module: e.module,
          order: e.order,
          primaryKey: e.primaryKey,
          perPage: e.perPage,
          schema: e.schema,
          access: level === 'form' ? level : e.readOnly || e.workflow ? 'read' : level,
        },
      ];
    });
  }
}

let metaValidator: ValidateFunction | undefined;

/** Validates a parsed schema file against the meta-schema; returns readable problems. */
export function checkAgainstMetaSchema(schema: unknown): string[] {
  if (!metaValidator) {
    const ajv = createAjv({ keywords: [] });
    metaValidator = ajv.compile(JSON.parse(readFileSync(META_SCHEMA_FILE, 'utf8')));
  }
  if (metaValidator(schema)) return [];
  return (metaValidator.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

export interface SchemaFile {
  path: string;
  module: string;
  name: string;
  schema: unknown;
}

export function readSchemaFiles(dir = SCHEMAS_DIR): SchemaFile[] {
  const files: SchemaFile[] = [];
  for (const module of readdirSync(dir, { withFileTypes: true })) {
    if (!module.isDirectory() || module.name.startsWith('_')) continue;
    for (const file of readdirSync(join(dir, module.name)).sort()) {
      if (!file.endsWith('.schema.json')) continue;
      const path = join(dir, module.name, file);
      let schema: unknown;
      try {
        schema = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new SchemaError(`${path}: not valid JSON (${(error as Error).message})`);
      }
      files.push({ path, module: module.name, name: basename(file, '.schema.json'), schema });
    }
  }
  return files;
}

/**
 * The value sets the code keeps, by `x-enum` name: a property naming one without an `enum` of its
 * own takes its values from here (a request's TipoSolicitud from the request kinds' table), so the
 * schema and the code never list them twice; one that lists its values keeps them (a subset).
 */
export type NamedEnums = Readonly<Record<string, readonly string[]>>;
export const NAMED_ENUMS: NamedEnums = {
  requestKind: REQUEST_KIND_CODES,
  conditionProcedure: CONDITION_PROCEDURES,
};

export function loadRegistry(dir = SCHEMAS_DIR, enums: NamedEnums = NAMED_ENUMS): Registry {
  return buildRegistry(readSchemaFiles(dir), enums);
}

export function buildRegistry(files: SchemaFile[], enums: NamedEnums = NAMED_ENUMS): Registry {
  const problems: string[] = [];
  const ajv = createAjv({ useDefaults: true });
  const entities: Entity[] = [];
  for (const file of files) {
    const metaProblems = checkAgainstMetaSchema(file.schema);
    if (metaProblems.length) {
      problems.push(...metaProblems.map((p) => `${file.path}: ${p}`));
      continue;
    }
    const schema = expand(file.schema as EntitySchema, enums);
    const local = checkConsistency(file, schema);
    if (local.length) {
      problems.push(...local.map((p) => `${file.path}: ${p}`));
      continue;
    }
    entities.push(toEntity(file, schema, ajv));
  }
  problems.push(...checkAcross(entities));
  if (problems.length) throw new SchemaError(`Invalid entity schemas:\n  ${problems.join('\n  ')}`);
  entities.sort(
    (a, b) =>
      MODULES.indexOf(a.module) - MODULES.indexOf(b.module) ||
      a.order - b.order ||
      a.name.localeCompare(b.name),
  );
  return new Registry(entities);
}

/** The range of an integer column on both databases: a larger value is a 400, not a driver error. */
export const INTEGER_RANGE = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;
/** The most references a set may hold when its schema says nothing. */
export const DEFAULT_MAX_ITEMS = 1000;

/**
 * Writes named patterns into `pattern`, marks computed fields read-only, and bounds every integer
 * (and every set of references) that its schema leaves open, so validation refuses what the
 * columns cannot hold.
 */
function expand(schema: EntitySchema, enums: NamedEnums): EntitySchema {
  const properties: Record<string, PropertySchema> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const out: PropertySchema = { ...prop };
    const named = prop['x-enum'] && !prop.enum ? enums[prop['x-enum']] : undefined;
    if (named) out.enum = [...named];
    if (prop['x-pattern']) out.pattern = PATTERNS[prop['x-pattern']];
    if (prop['x-computed']) out.readOnly = true;
    if (prop.type === 'integer') {
      out.minimum = Math.max(prop.minimum ?? INTEGER_RANGE.minimum, INTEGER_RANGE.minimum);
      out.maximum = Math.min(prop.maximum ?? INTEGER_RANGE.maximum, INTEGER_RANGE.maximum);
    }
    if (prop.format === 'date') out.maxLength ??= 10;
    if (prop.format === 'date-time') out.maxLength ??= 40;
    if (prop.type === 'array') {
      out.maxItems = prop.maxItems ?? DEFAULT_MAX_ITEMS;
      if (prop.items?.type === 'integer') out.items = { ...prop.items, ...INTEGER_RANGE };
    }
    properties[name] = out;
  }
  return { ...schema, properties };
}

function checkConsistency(file: SchemaFile, schema: EntitySchema): string[] {
  const problems: string[] = [];
  const props = schema.properties;
  const has = (field: string) => Object.hasOwn(props, field);
  const expectFields = (keyword: string, fields: string[] | undefined) => {
    for (const field of fields ?? [])
      if (!has(field)) problems.push(`${keyword} names unknown property ${field}`);
  };
  if (file.module !== schema['x-module']) {
    problems.push(`x-module is ${schema['x-module']} but the file lives in schemas/${file.module}/`);
  }
  const pk = schema['x-primaryKey'];
  if (!has(pk)) problems.push(`x-primaryKey names unknown property ${pk}`);
  expectFields('x-label', schema['x-label']);
  expectFields('x-list', schema['x-list']);
  expectFields('x-search', schema['x-search']);
  expectFields('x-filters', schema['x-filters']);
  expectFields('x-sortable', schema['x-sortable']);
  expectFields('required', schema.required);
  for (const condition of schema.allOf ?? []) {
    expectFields('allOf if', [...Object.keys(condition.if.properties), ...condition.if.required]);
    expectFields('allOf then', condition.then.required);
    expectFields('allOf else', condition.else?.required);
  }
  for (const set of [...(schema['x-unique'] ?? []), ...(schema['x-indexes'] ?? [])])
    expectFields('x-unique/x-indexes', set);
  for (const rule of schema['x-uniqueWhen'] ?? []) {
    expectFields('x-uniqueWhen', [...rule.fields, ...Object.keys(rule.when)]);
    for (const [field, values] of Object.entries(rule.when)) {
      const allowed = props[field]?.enum;
      const kind = props[field]?.type;
      for (const value of values)
        if (allowed ? !allowed.includes(value) : kind !== (typeof value === 'number' ? 'integer' : 'string'))
          problems.push(`x-uniqueWhen: ${field} cannot hold ${JSON.stringify(value)}`);
    }
  }
  for (const field of schema['x-search'] ?? []) {
    if (has(field) && props[field].type !== 'string')
      problems.push(`x-search field ${field} is not a string`);
  }
  const { companyThrough = [], sharedByCompanies: _shared, ...dimensions } = schema['x-scope'] ?? {};
  for (const field of companyThrough) {
    if (!has(field)) problems.push(`x-scope companyThrough names unknown property ${field}`);
    else if (!props[field]['x-ref'] || props[field].type === 'array')
      problems.push(`x-scope companyThrough field ${field} must be a single reference`);
  }
  if (dimensions.company && companyThrough.length)
    problems.push('x-scope may name a company field or companyThrough, not both');
  if (schema['x-companyFilter'] && (!companyThrough.length || has('IdCompania')))
    problems.push('x-companyFilter needs x-scope companyThrough and no IdCompania property of its own');
  for (const [dimension, field] of Object.entries(dimensions)) {
    if (!has(field)) {
      problems.push(`x-scope ${dimension} names unknown property ${field}`);
      continue;
    }
    const target = props[field]['x-ref']?.resource;
    if (dimension === 'company') {
      if (target !== 'company' && !(field === pk && file.name === 'company')) {
        problems.push(`x-scope company field ${field} must reference company`);
      }
    } else if (target !== dimension || !props[field].readOnly) {
      problems.push(`x-scope ${dimension} field ${field} must be a read-only reference to ${dimension}`);
    }
  }
  const arrays = new Set(Object.keys(props).filter((f) => props[f].type === 'array'));
  const noArrays = (keyword: string, fields: string[] | undefined) => {
    for (const field of fields ?? [])
      if (arrays.has(field)) problems.push(`${keyword} may not name the reference set ${field}`);
  };
  noArrays('x-label', schema['x-label']);
  noArrays('x-search', schema['x-search']);
  noArrays('x-sortable', schema['x-sortable']);
  for (const set of [...(schema['x-unique'] ?? []), ...(schema['x-indexes'] ?? [])])
    noArrays('x-unique/x-indexes', set);
  for (const rule of schema['x-uniqueWhen'] ?? [])
    noArrays('x-uniqueWhen', [...rule.fields, ...Object.keys(rule.when)]);
  noArrays('x-primaryKey', [pk]);
  for (const { start, end } of schema['x-after'] ?? []) expectFields('x-after', [start, end]);
  const access = schema['x-lookupAccess'];
  if (access && !schema['x-lookup']) problems.push('x-lookupAccess without x-lookup');
  if (access && typeof access === 'object' && props[access.screenField]?.['x-widget'] !== 'resource')
    problems.push(`x-lookupAccess screenField ${access.screenField} must be a resource widget`);
  const sectioned = new Set<string>();
  for (const section of schema['x-sections'] ?? []) {
    expectFields(`x-sections ${section.name}`, section.fields);
    for (const field of section.fields) {
      if (sectioned.has(field)) problems.push(`x-sections: ${field} is in two sections`);
      sectioned.add(field);
    }
  }
  const lock = schema['x-lockedWhen'];
  if (lock) expectFields('x-lockedWhen', [lock.field, ...(lock.except ?? [])]);
  const sort = schema['x-defaultSort'];
  if (sort && sort.field !== pk && !(schema['x-sortable'] ?? []).includes(sort.field)) {
    problems.push(`x-defaultSort field ${sort.field} is neither the key nor in x-sortable`);
  }
  for (const [name, prop] of Object.entries(props)) {
    if (prop['x-generated'] && name !== pk) problems.push(`${name}: only the primary key may be x-generated`);
    if (prop['x-generated'] && schema.required?.includes(name))
      problems.push(`${name}: generated, so not required`);
    const source = prop['x-computed']?.yearsSince;
    if (source && !has(source)) problems.push(`${name}: x-computed names unknown property ${source}`);
    if (prop.readOnly && schema.required?.includes(name))
      problems.push(`${name}: read-only, so not required`);
    if (prop['x-upper'] && prop.type !== 'string') problems.push(`${name}: x-upper on a non-string`);
    if (prop['x-lower'] && (prop.type !== 'string' || prop['x-upper']))
      problems.push(`${name}: x-lower on a non-string or with x-upper`);
    const typeField = prop['x-document']?.type;
    if (typeField && props[typeField]?.['x-ref']?.resource !== 'document-type')
      problems.push(`${name}: x-document type ${typeField} must reference document-type`);
    for (const local of Object.values(prop['x-ref']?.filter ?? {}))
      if (!has(local)) problems.push(`${name}: x-ref filter names unknown property ${local}`);
  }
  return problems;
}

/** Checks that need every schema: references, names, tables. */
function checkAcross(entities: Entity[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, Entity>();
  const tables = new Set<string>();
  for (const entity of entities) {
    if (byName.has(entity.name)) problems.push(`resource ${entity.name} is defined twice`);
    if (tables.has(entity.table)) problems.push(`table ${entity.table} is used twice`);
    byName.set(entity.name, entity);
    tables.add(entity.table);
  }
  for (const entity of entities)
    for (const ref of entity.references)
      if (ref.many && ref.many.table.length > 63)
        problems.push(`${entity.file}: link table ${ref.many.table} is too long (x-table shortens it)`);
  // A record that refers to a company's records must say whether it is that company's too.
  const ownedByCompany = (e: Entity) => Boolean(e.scope.company || e.companyThrough.length);
  for (const entity of entities) {
    for (const field of entity.companyThrough) {
      const target = byName.get(entity.references.find((r) => r.field === field)?.target ?? '');
      if (target && !ownedByCompany(target))
        problems.push(
          `${entity.file}: companyThrough ${field} leads to ${target.name}, which belongs to no company`,
        );
    }
    if (ownedByCompany(entity) || entity.sharedByCompanies || entity.scope.user) continue;
    const owned = entity.references.filter((r) => {
      const target = byName.get(r.target);
      return target && ownedByCompany(target);
    });
    if (owned.length)
      problems.push(
        `${entity.file}: refers to ${owned.map((r) => `${r.target} (${r.field})`).join(', ')}, which belong to companies: ` +
          'declare x-scope companyThrough (the references that make the record a company’s) or sharedByCompanies',
      );
  }
  const lookups = new Map<string, string>();
  for (const entity of entities) {
    const key = entity.lookup?.toLowerCase();
    if (!key) continue;
    const other = lookups.get(key);
    if (other) problems.push(`${entity.file}: x-lookup ${entity.lookup} is also ${other}'s`);
    lookups.set(key, entity.name);
  }
  for (const entity of entities) {
    for (const [field, prop] of Object.entries(entity.schema.properties)) {
      const ref = prop['x-ref'];
      if (!ref) continue;
      const target = byName.get(ref.resource);
      if (!target) {
        problems.push(`${entity.file}: ${field} references unknown resource ${ref.resource}`);
        continue;
      }
      for (const remote of Object.keys(ref.filter ?? {}))
        if (!Object.hasOwn(target.schema.properties, remote))
          problems.push(`${entity.file}: ${field} filters ${ref.resource} by unknown property ${remote}`);
      const targetType = target.schema.properties[target.primaryKey].type;
      if (targetType !== (prop.type === 'array' ? prop.items?.type : prop.type)) {
        problems.push(`${entity.file}: ${field} is ${prop.type} but ${ref.resource}'s key is ${targetType}`);
      }
    }
  }
  return problems;
}

/** The properties holding the record's own client, division, company and user. */
function scopeDimensions(schema: EntitySchema): Scope {
  const { companyThrough: _through, sharedByCompanies: _shared, ...dimensions } = schema['x-scope'] ?? {};
  return dimensions;
}

/** IdCompaniaContratista → id_compania_contratista. */
function snake(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
}

function toEntity(file: SchemaFile, schema: EntitySchema, ajv: ReturnType<typeof createAjv>): Entity {
  const props = schema.properties;
  const pk = schema['x-primaryKey'];
  const table = schema['x-table'] ?? `${schema['x-module']}_${file.name.replaceAll('-', '_')}`;
  const writable = Object.keys(props).filter((f) => !props[f].readOnly && !props[f]['x-generated']);
  const dataClasses: Record<string, DataClass> = {};
  for (const [field, prop] of Object.entries(props)) {
    const dataClass = prop['x-dataClass'] ?? schema['x-dataClass'];
    if (dataClass) dataClasses[field] = dataClass;
  }
  const inputSchema = {
    ...schema,
    properties: Object.fromEntries(writable.map((f) => [f, props[f]])),
    required: (schema.required ?? []).filter((f) => writable.includes(f)),
  };
  delete (inputSchema as Partial<EntitySchema>).$id;
  const entity: Omit<Entity, 'validate'> = {
    name: schema['x-resource'] ?? file.name,
    file: file.path,
    module: schema['x-module'],
    order: schema['x-order'] ?? 100,
    table,
    primaryKey: pk,
    generatedKey: props[pk]['x-generated'] === true,
    schema,
    label: schema['x-label'],
    list: schema['x-list'],
    search: schema['x-search'] ?? [],
    filters: schema['x-filters'] ?? [],
    sortable: schema['x-sortable'] ?? [],
    defaultSort: schema['x-defaultSort'] ?? { field: pk, order: 'ASC' },
    perPage: schema['x-perPage'] ?? DEFAULT_PER_PAGE,
    unique: schema['x-unique'] ?? [],
    uniqueWhen: schema['x-uniqueWhen'] ?? [],
    indexes: schema['x-indexes'] ?? [],
    scope: scopeDimensions(schema),
    companyThrough: schema['x-scope']?.companyThrough ?? [],
    companyFilter: schema['x-companyFilter'] === true,
    sharedByCompanies: schema['x-scope']?.sharedByCompanies === true,
    readOnly: schema['x-readOnly'] === true,
    workflow: schema['x-workflow'],
    references: Object.entries(props)
      .filter(([, p]) => p['x-ref'])
      .map(([field, p]) => ({
        field,
        target: p['x-ref']?.resource ?? '',
        private: p['x-ref']?.private === true,
        goesWith: p['x-ref']?.goesWith === true,
        many:
          p.type === 'array'
            ? {
                table: `${table}_${snake(field)}`,
                owner: pk,
                value: 'Valor',
              }
            : undefined,
      })),
    writable,
    upper: Object.keys(props).filter((f) => props[f]['x-upper']),
    lower: Object.keys(props).filter((f) => props[f]['x-lower']),
    secrets: Object.keys(props).filter((f) => props[f]['x-widget'] === 'password'),
    images: Object.keys(props).filter((f) => props[f]['x-widget'] === 'image'),
    dataClasses,
    sensitive: Object.entries(dataClasses).flatMap(([field, dataClass]) =>
      isSensitive(dataClass) ? [{ field, dataClass }] : [],
    ),
    computed: Object.entries(props)
      .filter(([, p]) => p['x-computed'])
      .map(([field, p]) => ({ field, yearsSince: p['x-computed']?.yearsSince ?? '' })),
    group: schema['x-group'],
    hidden: schema['x-hidden'] === true,
    lookup: schema['x-lookup'],
    lookupAccess: schema['x-lookupAccess'],
    after: schema['x-after'] ?? [],
    lockedWhen: schema['x-lockedWhen'],
    documents: Object.entries(props)
      .filter(([, p]) => p['x-document'])
      .map(([field, p]) => ({ field, typeField: p['x-document']?.type ?? '' })),
  };
  // Compiled when first used: most entities a process builds are never validated by it (a test's
  // app, the type generator), and compiling them all took a third of the server's start.
  let validate: ValidateFunction | undefined;
  Object.defineProperty(entity, 'validate', {
    enumerable: true,
    get: () => {
      validate ??= ajv.compile(inputSchema);
      return validate;
    },
  });
  return entity as Entity;
}
