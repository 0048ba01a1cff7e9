import type { ClientFeature } from '../types.js';
import NewSecretButton from './NewSecretButton.js';
import ResendButton from './ResendButton.js';

/** Webhooks: an endpoint's new secret (shown once) and a delivery's resend, on their record screens. */
export const webhooks: ClientFeature = {
  name: 'webhooks',
  recordActions: {
    'webhook-endpoint': NewSecretButton,
    'webhook-delivery': ResendButton,
  },
};
