import type { Feature } from '../feature.js';
import { identificationHooks } from './hooks.js';

/** Identification screens: credentials. */
export const identification: Feature = {
  name: 'identification',
  hooks: ({ registry }) => identificationHooks(registry),
};
