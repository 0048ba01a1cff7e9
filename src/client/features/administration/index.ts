import type { ClientFeature } from '../types.js';
import { PersonPhotos, VehiclePhotos } from './PhotosPanel.js';

/** Administration: a person's mobile and extra photos and a vehicle's photos, on their record screens. */
export const administration: ClientFeature = {
  name: 'administration',
  recordPanels: { person: PersonPhotos, vehicle: VehiclePhotos },
};
