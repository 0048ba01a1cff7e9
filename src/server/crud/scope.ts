import { sql } from 'kysely';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import type { AnySelect, Row } from './types.js';

/**
 * The equalities that confine an entity to the caller: its client, its division, and for a
 * contractor its company. A session without the client or division a scoped entity needs
 * reaches none of its records.
 */
export function scopeOf(entity: Entity, principal: Principal): Array<[string, number | string]> {
  const out: Array<[string, number | string]> = [];
  const { client, division, company, user } = entity.scope;
  if (client) {
    if (principal.clientId === undefined) throw new ApiError('FORBIDDEN');
    out.push([client, principal.clientId]);
  }
  if (division) {
    if (principal.divisionId === undefined) throw new ApiError('FORBIDDEN');
    out.push([division, principal.divisionId]);
  }
  if (company && principal.companyId !== undefined) out.push([company, principal.companyId]);
  if (user) out.push([user, principal.userId]);
  return out;
}

const referenceTarget = (entity: Entity, field: string) =>
  entity.references.find((r) => r.field === field)?.target ?? '';

/** The keys of an entity's records that belong to one of the companies, directly or through a reference. */
function companyKeys(
  registry: Registry,
  qb: AnySelect,
  entity: Entity,
  company: number | number[],
): AnySelect {
  const keys = qb.select(`${entity.table}.${entity.primaryKey}`);
  if (entity.scope.company)
    return keys.where(
      `${entity.table}.${entity.scope.company}`,
      Array.isArray(company) ? 'in' : '=',
      company,
    );
  return keys.where((eb) =>
    eb.or(
      entity.companyThrough.map((field) => {
        const target = registry.require(referenceTarget(entity, field));
        return eb(
          `${entity.table}.${field}`,
          'in',
          companyKeys(registry, eb.selectFrom(target.table), target, company),
        );
      }),
    ),
  );
}

/**
 * A query of the entity confined to what the caller may see: its own client, division and
 * company, and for a record that belongs to a company through a reference (a person's
 * credential, a contract's addendum), a contractor sees it only when that reference reaches a
 * record of its company.
 */
export function confine(registry: Registry, qb: AnySelect, entity: Entity, principal: Principal): AnySelect {
  let out = qb;
  for (const [field, value] of scopeOf(entity, principal)) out = out.where(field, '=', value);
  const company = principal.companyId;
  if (company === undefined) return out;
  return ofCompanies(registry, out, entity, company);
}

/**
 * The records of an entity that belongs to a company through references (a marking through its
 * person or vehicle) whose reference reaches a record of one of the companies.
 */
export function ofCompanies(
  registry: Registry,
  qb: AnySelect,
  entity: Entity,
  company: number | number[],
): AnySelect {
  if (!entity.companyThrough.length) return qb;
  if (Array.isArray(company) && !company.length) return qb.where(sql<boolean>`1 = 0`);
  return qb.where((eb) =>
    eb.or(
      entity.companyThrough.map((field) => {
        const target = registry.require(referenceTarget(entity, field));
        return eb(field, 'in', companyKeys(registry, eb.selectFrom(target.table), target, company));
      }),
    ),
  );
}

/** Scope values a new record takes from the session (a contractor's company overrides the body's). */
export function stamp(entity: Entity, data: Row, principal: Principal): void {
  for (const [field, value] of scopeOf(entity, principal)) data[field] = value;
}

/**
 * A contractor's record that belongs to a company through a reference must name one: otherwise
 * it would belong to nobody the contractor can see. (The reference itself must be visible.)
 */
export function requireOwner(entity: Entity, data: Row, principal: Principal): void {
  const through = entity.companyThrough;
  if (principal.companyId !== undefined && through.length && through.every((f) => data[f] === undefined))
    throw new ApiError('VALIDATION_FAILED', {
      fields: { [through[0]]: { messageKey: 'validation.required' } },
    });
}

/** The fields the session sets (client, division, user): never the user's to name or change. */
export function sessionFields(entity: Entity): Set<string | undefined> {
  return new Set([entity.scope.client, entity.scope.division, entity.scope.user]);
}
