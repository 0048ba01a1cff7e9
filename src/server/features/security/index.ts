import type { FastifyInstance } from 'fastify';
import type { Feature } from '../feature.js';
import accountRoutes from './account-routes.js';
import directoryRoutes from './directory-routes.js';
import { securityHooks } from './hooks.js';
import ownRecordRoutes from './own-record-routes.js';
import registerRoutes from './register-routes.js';
import signInRoutes from './sign-in-routes.js';
import totpRoutes from './totp-routes.js';

/** Sign-in, sessions, passwords, profiles and menus (spec sections 2, 4 and 7). */
export const security: Feature = {
  name: 'security',
  hooks: ({ registry, notifier }) => securityHooks(registry, notifier),
  routes: async (api: FastifyInstance) => {
    await api.register(signInRoutes);
    await api.register(totpRoutes);
    await api.register(accountRoutes);
    await api.register(directoryRoutes);
    await api.register(ownRecordRoutes);
    await api.register(registerRoutes);
  },
};
