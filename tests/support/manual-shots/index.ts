import { SHOTS as administrator } from './administrator.js';
import { SHOTS as attendance } from './attendance.js';
import { SHOTS as authoriser } from './authoriser.js';
import { SHOTS as camp } from './camp.js';
import { SHOTS as dining } from './dining.js';
import { SHOTS as gate } from './gate.js';
import { SHOTS as identification } from './identification.js';
import { SHOTS as induction } from './induction.js';
import { SHOTS as requester } from './requester.js';
import type { Shot } from './shot.js';
import { SHOTS as transport } from './transport.js';

export type { Shot } from './shot.js';

/** Every guide's screenshots, by guide (one file each; a shot's name starts with its guide's id). */
export const SHOTS: readonly Shot[] = [
  ...requester,
  ...authoriser,
  ...administrator,
  ...identification,
  ...camp,
  ...dining,
  ...attendance,
  ...induction,
  ...transport,
  ...gate,
];
