import type { ClientFeature } from '../types.js';
import CopyDayButton from './schedule/CopyDayButton.js';

/** Site access: the schedule's copy of a day's intervals to other days. */
export const access: ClientFeature = {
  name: 'access',
  recordActions: { schedule: CopyDayButton },
};
