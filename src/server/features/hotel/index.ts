import type { Feature } from '../feature.js';
import { hotelHooks } from './hooks.js';

/** Hotel and camp screens. */
export const hotel: Feature = {
  name: 'hotel',
  hooks: ({ registry }) => hotelHooks(registry),
};
