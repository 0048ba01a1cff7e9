import type { ClientFeature } from '../types.js';
import DeviceKeyButton from './equipment/DeviceKeyButton.js';
import CopyDayButton from './schedule/CopyDayButton.js';

/** Site access: the schedule's copy of a day's intervals to other days; the equipment's device key. */
export const access: ClientFeature = {
  name: 'access',
  recordActions: { schedule: CopyDayButton, equipment: DeviceKeyButton },
};
