import { type Expression, type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../db/connection.js';
import type { Entity } from '../registry.js';
import type { ListQuery } from './list-query.js';
import type { AnySelect } from './types.js';

/**
 * A list's conditions: each filter an equality, or membership for several values (null for an
 * empty value, and for a set of references, "holds any of them" or "holds none"), all joined by
 * AND; the free text searched in the entity's x-search fields.
 */
export function applyFilters(
  qb: AnySelect,
  entity: Entity,
  query: ListQuery,
  dialect: DialectName,
): AnySelect {
  let out = qb;
  for (const { field, values } of query.filters) {
    const present = values.filter((v) => v !== null);
    const wantsNull = present.length < values.length;
    const many = entity.references.find((r) => r.field === field)?.many;
    if (many) {
      // A record matches when its set holds any of the values (or, for null, is empty).
      out = out.where((eb) => {
        const linked = (vals: unknown[]) =>
          eb.exists(
            eb
              .selectFrom(many.table)
              .select(sql.lit(1).as('one'))
              .whereRef(`${many.table}.${many.owner}`, '=', `${entity.table}.${entity.primaryKey}`)
              .where(`${many.table}.${many.value}`, 'in', vals),
          );
        const parts = [];
        if (present.length) parts.push(linked(present));
        if (wantsNull)
          parts.push(
            eb.not(
              eb.exists(
                eb
                  .selectFrom(many.table)
                  .select(sql.lit(1).as('one'))
                  .whereRef(`${many.table}.${many.owner}`, '=', `${entity.table}.${entity.primaryKey}`),
              ),
            ),
          );
        return parts.length ? eb.or(parts) : sql<boolean>`1 = 0`;
      });
      continue;
    }
    out = out.where((eb) => {
      const parts = [];
      if (present.length === 1) parts.push(eb(field, '=', present[0]));
      if (present.length > 1) parts.push(eb(field, 'in', present));
      if (wantsNull) parts.push(eb(field, 'is', null));
      // An empty id list (getMany of nothing) matches nothing.
      return parts.length ? eb.or(parts) : sql<boolean>`1 = 0`;
    });
  }
  for (const { field, op, value } of query.ranges ?? []) out = out.where(field, op, value);
  if (query.q && entity.search.length) {
    const pattern = containsPattern(query.q);
    const op = dialect === 'postgres' ? 'ilike' : 'like';
    // biome-ignore lint/suspicious/noExplicitAny: dynamic table
    out = out.where((eb: ExpressionBuilder<any, any>) =>
      eb.or(entity.search.map((field) => likeEscaped(eb.ref(field), pattern, op))),
    );
  }
  return out;
}

/** `%text%` for a LIKE that finds `text` anywhere, its own `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `expression LIKE pattern ESCAPE '\'` (or ILIKE): the escape said out loud, since SQLite has no
 * default one and a pattern of containsPattern() would otherwise miss a `_` or `%` typed.
 */
export const likeEscaped = (
  expression: Expression<unknown>,
  pattern: string,
  op: 'like' | 'ilike' = 'like',
): RawBuilder<boolean> => sql<boolean>`${expression} ${sql.raw(op)} ${pattern} escape '\\'`;
