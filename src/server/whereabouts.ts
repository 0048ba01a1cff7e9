import type { AwayRow } from '../shared/access.js';
import type { Db } from './db/connection.js';

/**
 * Who a feature's records place away from the site but in the company's care (people on a bus on
 * the road), of a division or of a contractor's company: the evacuation roll call lists them apart
 * from those inside, reading every feature's through the app (fastify.whereabouts), never a feature.
 */
export interface Whereabouts {
  away(db: Db, scope: { clientId: number; divisionId: number; companyId?: number }): Promise<AwayRow[]>;
}
