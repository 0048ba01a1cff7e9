import type { DataClass } from '../shared/data-classes.js';
import type { AnySelect, Row } from './crud/types.js';
import type { Db } from './db/connection.js';

/**
 * What a feature's records say about keeping a person's data (the retention job reads every
 * feature's through the app, fastify.personalData, never a feature):
 * - `ends`: when each person's relation with the client ended by this area's records (a select of
 *   `IdPersona` and `Fin`, a date): the last accreditation's end, a visit's;
 * - `holds`: the people this area still needs, whatever their end (an accreditation in force, an
 *   open request, a payroll period not yet closed), each a select of `IdPersona` with its reason;
 * - `erase`: what the area keeps of a class of these people's data besides the schemas' own fields
 *   (a medical examination's values and file on a request's lines), erased in the job's transaction;
 * - `export`: the same kind of records, read for one person's access request.
 */
export interface PersonalDataSource {
  ends?(db: Db, client: number): AnySelect;
  holds?: ReadonlyArray<{ reason: string; people(db: Db, client: number, today: string): AnySelect }>;
  erase?(trx: Db, client: number, people: AnySelect, dataClass: DataClass): Promise<void>;
  /**
   * What the area holds about one person in records that do not name them (a request's lines), by
   * resource, for the export that answers their access request. A row with `ClaseDato` (its
   * requirement's class) holds sensitive data of that class.
   */
  export?(db: Db, client: number, person: number): Promise<Record<string, Row[]>>;
}
