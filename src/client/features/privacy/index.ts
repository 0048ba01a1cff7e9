import type { ClientFeature } from '../types.js';
import RetentionButtons from './RetentionButtons.js';

/** Personal-data protection: the retention job's dry run and run, on its rules' list. */
export const privacy: ClientFeature = {
  name: 'privacy',
  listActions: { 'retention-rule': RetentionButtons },
};
