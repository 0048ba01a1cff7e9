import { sql } from 'kysely';
import type { Db } from './connection.js';

/**
 * A savepoint inside a transaction, for a set of rows written in one transaction where each must
 * stand or fall alone: a row that fails is rolled back to the savepoint set before it, and the
 * transaction (on PostgreSQL, aborted by a failed statement until then) goes on. Its name is the
 * one savepoint a transaction of rows needs.
 */
const NAME = sql.id('a_row');

/** Sets the savepoint (a later one of the same name hides an earlier one until released). */
export const savepoint = (trx: Db) => sql`savepoint ${NAME}`.execute(trx);

/** Undoes what was written since the savepoint; the savepoint stays, to be rolled back to again. */
export const rollbackToSavepoint = (trx: Db) => sql`rollback to savepoint ${NAME}`.execute(trx);

/** Forgets the savepoint, keeping what was written since. */
export const releaseSavepoint = (trx: Db) => sql`release savepoint ${NAME}`.execute(trx);
