import type { ClientFeature } from '../types.js';
import ExportButton from './ExportButton.js';
import IncidentButtons from './IncidentButtons.js';
import RetentionButtons from './RetentionButtons.js';

/**
 * Personal-data protection: the retention job's dry run and run, on its rules' list; a rights
 * request's export of everything held about its person, and a security incident's notices, on
 * their record screens.
 */
export const privacy: ClientFeature = {
  name: 'privacy',
  recordActions: { 'rights-request': ExportButton, 'security-incident': IncidentButtons },
  listActions: { 'retention-rule': RetentionButtons },
};
