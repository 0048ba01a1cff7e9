import type { Feature } from '../feature.js';
import { addendaSchedule, addendumHooks } from './addenda.js';
import { backfill } from './employment.js';
import { administrationHooks } from './hooks.js';
import photoRoutes from './photos.js';

/** Administration screens: people (and their photos), vehicles (and theirs), contracts, companies. */
export const administration: Feature = {
  name: 'administration',
  hooks: ({ registry, now }) => ({
    ...administrationHooks(registry),
    addendum: addendumHooks(registry, now),
  }),
  // A ceased person's relation with the client ended on their cessation date.
  personalData: ({ registry }) => ({
    ends: (db, client) =>
      db
        .selectFrom(registry.require('person').table)
        .select(['IdPersona', 'FechaCese as Fin'])
        .where('IdCliente', '=', client)
        .where('FechaCese', 'is not', null),
  }),
  // Who reaches the people's screens reads their employments (its company's, by the scope).
  grants: [{ routePrefix: '/person', read: ['person-employment'] }],
  routes: async (api) => {
    // People registered before employments were kept get theirs once the server is ready.
    api.addHook('onReady', () => backfill(api.database, api.registry));
    addendaSchedule(api);
    await api.register(photoRoutes);
  },
};
