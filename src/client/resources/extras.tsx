import type { ComponentType } from 'react';
import CopyDayButton from './schedule/CopyDayButton.js';

/** Actions a resource adds to its show and edit screens beyond the generic ones. */
export const RECORD_ACTIONS: Record<string, ComponentType> = {
  schedule: CopyDayButton,
};
