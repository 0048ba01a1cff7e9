import { lazy } from 'react';
import { ACCESS_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';
import EffectiveAccessButton from './effective/EffectiveAccessButton.js';
import DeviceKeyButton from './equipment/DeviceKeyButton.js';
import HeadcountTab from './headcount/HeadcountTab.js';
import CopyDayButton from './schedule/CopyDayButton.js';

const RollCallPage = lazy(() => import('./headcount/RollCallPage.js'));
const RequirementReportPage = lazy(() => import('./requirements/RequirementReportPage.js'));

/**
 * Site access: the schedule's copy of a day's intervals to other days; the equipment's device key;
 * the evacuation roll call; the requirement report (who is blocked by an expired requirement); a
 * person's or vehicle's effective access on its access assignment; the requester dashboard's
 * headcount tab.
 */
export const access: ClientFeature = {
  name: 'access',
  routes: [
    { path: ACCESS_SCREENS.rollCall.route, Component: RollCallPage, beyondMenu: true },
    { path: ACCESS_SCREENS.requirementReport.route, Component: RequirementReportPage, beyondMenu: true },
  ],
  recordActions: {
    schedule: CopyDayButton,
    equipment: DeviceKeyButton,
    'person-access': EffectiveAccessButton,
    'vehicle-access': EffectiveAccessButton,
  },
  slots: { requesterHeadcount: HeadcountTab },
};
