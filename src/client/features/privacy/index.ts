import type { ClientFeature } from '../types.js';
import ExportButton from './ExportButton.js';
import RetentionButtons from './RetentionButtons.js';

/**
 * Personal-data protection: the retention job's dry run and run, on its rules' list; a rights
 * request's export of everything held about its person, on its record screens.
 */
export const privacy: ClientFeature = {
  name: 'privacy',
  recordActions: { 'rights-request': ExportButton },
  listActions: { 'retention-rule': RetentionButtons },
};
