import type { Row } from './crud/types.js';
import type { Db } from './db/connection.js';
import type { Principal } from './principal.js';

/**
 * An accreditation that ended (its demobilisation approved), as the deciding transaction tells the
 * areas whose rows hang on it: access, identification, dining and lodging release their own.
 */
export interface AccreditationEnded {
  accreditation: {
    IdAcreditacion: number;
    IdCliente: number;
    IdDivision: number;
    IdPersona: number | null;
    IdVehiculo: number | null;
  };
  /** The day it ends on (yyyy-mm-dd): a period running later ends then. */
  date: string;
  /** No other active accreditation of the holder in this division. */
  lastInDivision: boolean;
  /** No other active accreditation of the holder with this client. */
  lastOfClient: boolean;
  principal: Principal;
  /** The instant of the decision, as stored. */
  at: string;
}

/** A row a listener released, for the revocation log (before and after when it was changed). */
export interface Revocation {
  resource: string;
  id: number;
  description: string | null;
  before?: Row;
  after?: Row;
}

/** What a feature does when an accreditation changes; each runs in the deciding transaction. */
export interface AccreditationListeners {
  ended?(trx: Db, event: AccreditationEnded): Promise<Revocation[]>;
}

/**
 * The features' listeners of accreditation events, called in the features' order inside the
 * transaction that decides: a listener that fails undoes the decision with its own message, so a
 * demobilised worker's access, badge, meals and stays end with the accreditation, or nothing does.
 */
export class AccreditationEvents {
  private readonly listeners: Array<{ owner: string; listen: AccreditationListeners }>;

  constructor(listeners: ReadonlyArray<{ owner: string; listen: AccreditationListeners }> = []) {
    this.listeners = [...listeners];
  }

  /** One more listener, after the features' (another system's, a test's); answers its removal. */
  add(owner: string, listen: AccreditationListeners): () => void {
    const entry = { owner, listen };
    this.listeners.push(entry);
    return () => {
      const at = this.listeners.indexOf(entry);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  async ended(trx: Db, event: AccreditationEnded): Promise<Revocation[]> {
    const released: Revocation[] = [];
    for (const { listen } of this.listeners)
      if (listen.ended) released.push(...(await listen.ended(trx, event)));
    return released;
  }
}
