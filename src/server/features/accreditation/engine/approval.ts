import type { Principal } from '../../../principal.js';
import type { ProfileDef } from '../catalogue.js';
import type { Line } from '../lines.js';
import type { Stored } from './engine.js';

/** What an approval's effect works from: the request as approved, its profile and lines (none for a kind without lines). */
export interface ApprovalContext {
  request: Stored;
  profile: ProfileDef | null;
  lines: Line[];
  principal: Principal;
}
