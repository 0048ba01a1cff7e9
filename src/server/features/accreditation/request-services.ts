import type { CrudService } from '../../crud/service.js';
import type { Database } from '../../db/connection.js';
import type { AccreditationEvents } from '../../events.js';
import type { Registry } from '../../registry.js';
import type { RequirementSources } from '../../requirement-sources.js';
import type { FileStore } from '../../storage/files.js';
import { Decisions } from './engine/decisions.js';
import { type Kinds, RequestEngine } from './engine/engine.js';
import { AccreditedChanges } from './kinds/accredited.js';
import { Mobilisations } from './kinds/mobilisation.js';
import { Renewals } from './kinds/renewal.js';
import type { Notices } from './notices.js';

/** The request engine with its decisions and every kind's module over it. */
export interface RequestServices {
  engine: RequestEngine;
  decisions: Decisions;
  mobilisations: Mobilisations;
  renewals: Renewals;
  changes: AccreditedChanges;
}

export function requestServices(
  kinds: Kinds,
  database: Database,
  registry: Registry,
  crud: CrudService,
  files: FileStore,
  notices: Notices,
  now: () => number = Date.now,
  events?: AccreditationEvents,
  sources?: RequirementSources,
): RequestServices {
  const engine = new RequestEngine(database, registry, crud, files, notices, kinds, now, events, sources);
  return {
    engine,
    decisions: new Decisions(engine),
    mobilisations: new Mobilisations(engine),
    renewals: new Renewals(engine),
    changes: new AccreditedChanges(engine),
  };
}
