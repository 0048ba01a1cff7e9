import { lazy } from 'react';
import type { ClientFeature } from '../types.js';
import DeviceKeyButton from './equipment/DeviceKeyButton.js';
import CopyDayButton from './schedule/CopyDayButton.js';

const RollCallPage = lazy(() => import('./headcount/RollCallPage.js'));

/** Site access: the schedule's copy of a day's intervals to other days; the equipment's device key; the evacuation roll call. */
export const access: ClientFeature = {
  name: 'access',
  routes: [{ path: '/acceso/evacuacion', Component: RollCallPage }],
  recordActions: { schedule: CopyDayButton, equipment: DeviceKeyButton },
};
