import type { DataClass } from '../shared/data-classes.js';
import type { AnySelect } from './crud/types.js';
import type { Db } from './db/connection.js';

/**
 * What a feature's records say about keeping a person's data (the retention job reads every
 * feature's through the app, fastify.personalData, never a feature):
 * - `ends`: when each person's relation with the client ended by this area's records (a select of
 *   `IdPersona` and `Fin`, a date): the last accreditation's end, a visit's;
 * - `holds`: the people this area still needs, whatever their end (an accreditation in force, an
 *   open request, a payroll period not yet closed), each a select of `IdPersona` with its reason;
 * - `erase`: what the area keeps of a class of these people's data besides the schemas' own fields
 *   (a medical examination's values and file on a request's lines), erased in the job's transaction.
 */
export interface PersonalDataSource {
  ends?(db: Db, client: number): AnySelect;
  holds?: ReadonlyArray<{ reason: string; people(db: Db, client: number, today: string): AnySelect }>;
  erase?(trx: Db, client: number, people: AnySelect, dataClass: DataClass): Promise<void>;
}
