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

/** What can happen to an accreditation: each is written to its events (the outbox) and told to the listeners. */
export type AccreditationChangeKind = 'granted' | 'ended' | 'suspended' | 'reinstated' | 'moved' | 'extended';

/** A change of an accreditation, as written to its events (the outbox) in the changing transaction. */
export interface AccreditationChange {
  IdCliente: number;
  IdAcreditacion: number;
  Tipo: AccreditationChangeKind;
  /** What the change says besides (the request that made it, the new end, the contracts). */
  Datos?: Record<string, unknown>;
  /** The instant of the change, as stored, and who made it (SISTEMA for the daily job). */
  at: string;
  userId: string;
}

/** What a feature does when an accreditation changes; each runs in the changing transaction. */
export interface AccreditationListeners {
  /** An accreditation ended: the feature releases its rows that hang on it, answering them for the revocation log. */
  ended?(trx: Db, event: AccreditationEnded): Promise<Revocation[]>;
  /** Any change (granted, ended, suspended, reinstated, moved, extended), after its event is written. */
  changed?(trx: Db, change: AccreditationChange): Promise<void>;
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

  /** Tells every listener of changes, in order; one that throws undoes the change with its message. */
  async changed(trx: Db, change: AccreditationChange): Promise<void> {
    for (const { listen } of this.listeners) if (listen.changed) await listen.changed(trx, change);
  }

  async ended(trx: Db, event: AccreditationEnded): Promise<Revocation[]> {
    const released: Revocation[] = [];
    for (const { listen } of this.listeners)
      if (listen.ended) released.push(...(await listen.ended(trx, event)));
    return released;
  }
}
