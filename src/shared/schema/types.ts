import type { DataClass } from '../data-classes.js';
import type { ModuleKey } from '../modules.js';
import type { PatternName } from './patterns.js';

/** TypeScript view of schemas/_meta/entity.schema.json (the meta-schema is the authority). */

export type SortOrder = 'ASC' | 'DESC';
export type ScopeDimension = 'client' | 'division' | 'company' | 'user';
/** Which property holds each tenancy dimension of a record. */
export type Scope = Partial<Record<ScopeDimension, string>>;
/** The x-scope keyword: the dimensions, and how a record without a company of its own belongs to one. */
export interface ScopeSpec extends Scope {
  /** References through which the record belongs to a company (a person's, a vehicle's, a contract's). */
  companyThrough?: string[];
  /** References to companies' records that do not make the record theirs: every company shares it. */
  sharedByCompanies?: true;
}
export type WidgetHint =
  | 'textarea'
  | 'password'
  | 'image'
  | 'pdf'
  | 'document'
  | 'color'
  | 'ubigeo'
  | 'resource'
  | 'field';

export interface RefSpec {
  resource: string;
  /** Cascading select: { targetProperty: thisProperty }. */
  filter?: Record<string, string>;
  /** The target is not made readable to this entity's readers: they see the stored key. */
  private?: boolean;
  /** This entity's rows are bookkeeping of the target's record and are deleted with it. */
  goesWith?: boolean;
}

export interface AfterRule {
  start: string;
  end: string;
  messageKey?: string;
}

/** A titled group of a form's fields (x-sections): label resources.<resource>.sections.<name>. */
export interface SectionSpec {
  name: string;
  fields: string[];
}

export interface LockRule {
  field: string;
  equals: string;
  except?: string[];
  delete?: boolean;
  messageKey: string;
}

export interface PropertySchema {
  /** An array holds a set of references (x-ref), kept in a link table. */
  type: 'string' | 'integer' | 'number' | 'array';
  items?: { type: 'string' | 'integer'; minimum?: number; maximum?: number; maxLength?: number };
  uniqueItems?: true;
  minItems?: number;
  maxItems?: number;
  description?: string;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: 'date' | 'date-time' | 'email';
  enum?: Array<string | number>;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  readOnly?: boolean;
  'x-generated'?: true;
  'x-ref'?: RefSpec;
  'x-enum'?: string;
  'x-upper'?: true;
  /** Lower-cased before validation and save (e-mail addresses, compared without case). */
  'x-lower'?: true;
  'x-pattern'?: PatternName;
  'x-widget'?: WidgetHint;
  'x-computed'?: { yearsSince: string };
  'x-document'?: { type: string };
  'x-message'?: string;
  /** The class of personal data the field holds (src/shared/data-classes.ts). */
  'x-dataClass'?: DataClass;
}

export interface RequiredWhen {
  if: { properties: Record<string, { const: unknown }>; required: string[] };
  then: { required: string[] };
  else?: { required: string[] };
}

/**
 * A partial unique index (x-uniqueWhen): no two records matching `when` (each property named there
 * holding one of the values listed) share `fields`; a record the index refuses answers messageKey.
 */
export interface UniqueWhen {
  fields: string[];
  when: Record<string, Array<string | number>>;
  messageKey: string;
}

export interface EntitySchema {
  $schema: string;
  $id?: string;
  title: string;
  description?: string;
  type: 'object';
  required?: string[];
  /** Fields required only when another holds a value: JSON Schema if/then (else). */
  allOf?: RequiredWhen[];
  additionalProperties: false;
  properties: Record<string, PropertySchema>;
  'x-module': ModuleKey;
  'x-order'?: number;
  'x-resource'?: string;
  'x-table'?: string;
  'x-primaryKey': string;
  'x-label': string[];
  'x-list': string[];
  'x-search'?: string[];
  'x-filters'?: string[];
  /** The list can be filtered by company (IdCompania): the company it belongs to, directly or through a reference. */
  'x-companyFilter'?: true;
  'x-sortable'?: string[];
  'x-defaultSort'?: { field: string; order: SortOrder };
  'x-perPage'?: number;
  'x-unique'?: string[][];
  'x-indexes'?: string[][];
  'x-uniqueWhen'?: UniqueWhen[];
  'x-scope'?: ScopeSpec;
  'x-readOnly'?: true;
  'x-workflow'?: string;
  'x-group'?: string;
  'x-hidden'?: true;
  /** The data class of the fields that do not name their own. */
  'x-dataClass'?: DataClass;
  'x-lookup'?: string;
  'x-lookupAccess'?: 'signedIn' | { screenField: string };
  'x-after'?: AfterRule[];
  'x-lockedWhen'?: LockRule;
  'x-sections'?: SectionSpec[];
}

/** The x- keywords, so ajv (strict mode) accepts them as annotations. */
export const X_KEYWORDS = [
  'x-module',
  'x-order',
  'x-resource',
  'x-table',
  'x-primaryKey',
  'x-label',
  'x-list',
  'x-search',
  'x-filters',
  'x-companyFilter',
  'x-sortable',
  'x-defaultSort',
  'x-perPage',
  'x-unique',
  'x-indexes',
  'x-uniqueWhen',
  'x-scope',
  'x-readOnly',
  'x-workflow',
  'x-generated',
  'x-ref',
  'x-enum',
  'x-upper',
  'x-lower',
  'x-pattern',
  'x-widget',
  'x-computed',
  'x-group',
  'x-hidden',
  'x-lookup',
  'x-lookupAccess',
  'x-after',
  'x-lockedWhen',
  'x-document',
  'x-message',
  'x-sections',
  'x-dataClass',
] as const;

/** Audit columns every table carries; set by the server, never by the client. */
export const AUDIT_FIELDS = [
  'IdUsuarioCreacion',
  'FechaCreacion',
  'IdUsuarioModificacion',
  'FechaModificacion',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

/** What the client receives about one resource (GET /api/meta). */
export interface ResourceMeta {
  name: string;
  module: ModuleKey;
  order: number;
  primaryKey: string;
  perPage: number;
  schema: EntitySchema;
  /**
   * Whether the caller's profile may create, change and delete these records, or only read them;
   * form: a workflow's records, whose schema its screens draw but which only its own calls read.
   */
  access: 'read' | 'write' | 'form';
}
