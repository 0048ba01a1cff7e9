import { responseDeadline } from '../../../shared/privacy-terms.js';
import type { Feature } from '../feature.js';
import { incidentHooks } from './incidents.js';
import { rightsHooks } from './rights.js';
import privacyRoutes from './routes.js';
import { ensurePrivacyTables } from './tables.js';

/** How long the demo client keeps each class of a person's data after the relation ends, in months. */
const DEMO_RETENTION: Record<string, number> = {
  identity: 120,
  contact: 60,
  financial: 120,
  health: 24,
  criminal: 24,
  biometric: 24,
};

/**
 * Personal-data protection (Ley 29733, Ley 21.719). The generic reads mask health and
 * criminal-record data for profiles whose settings do not allow them and log every read of them
 * (src/server/services/privacy.ts); this area keeps the log append-only in the database and runs
 * the retention job over every area's records (fastify.personalData).
 */
export const privacy: Feature = {
  name: 'privacy',
  tables: ensurePrivacyTables,
  routes: privacyRoutes,
  hooks: ({ registry, now }) => ({ ...rightsHooks(registry, now), ...incidentHooks() }),
  // A legal hold in force keeps its person's data, whatever the rules say.
  personalData: ({ registry }) => ({
    holds: [
      {
        reason: 'legalHold',
        people: (db, client, today) =>
          db
            .selectFrom(registry.require('legal-hold').table)
            .select('IdPersona')
            .where('IdCliente', '=', client)
            .where('Activo', '=', 'S')
            .where('FechaDesde', '<=', today)
            .where((eb) => eb.or([eb('FechaHasta', 'is', null), eb('FechaHasta', '>=', today)])),
      },
    ],
  }),
  demo: {
    order: 90,
    seed: async ({ trx, registry, clientId }) => {
      const at = new Date().toISOString();
      await trx
        .insertInto(registry.require('retention-rule').table)
        .values(
          Object.entries(DEMO_RETENTION).map(([ClaseDato, Meses]) => ({
            IdCliente: clientId,
            ClaseDato,
            Meses,
            Activo: 'S',
            IdUsuarioCreacion: 'SISTEMA',
            FechaCreacion: at,
          })),
        )
        .execute();
      // A lawsuit keeps a former worker's data of one contractor whatever the rules say.
      const held = (await trx
        .selectFrom(`${registry.require('person').table} as p`)
        .innerJoin(`${registry.require('company').table} as c`, 'c.IdCompania', 'p.IdCompania')
        .select('p.IdPersona')
        .where('p.IdCliente', '=', clientId)
        .where('c.Alias', '=', 'TRANSALTI')
        .orderBy('p.IdPersona')
        .limit(1)
        .execute()) as Array<{ IdPersona: number }>;
      if (held.length)
        await trx
          .insertInto(registry.require('legal-hold').table)
          .values(
            held.map(({ IdPersona }) => ({
              IdCliente: clientId,
              IdPersona,
              Motivo: 'DEMANDA LABORAL EN TRÁMITE ANTE EL JUZGADO DE TRABAJO',
              FechaDesde: '2026-03-01',
              Activo: 'S',
              IdUsuarioCreacion: 'SISTEMA',
              FechaCreacion: at,
            })),
          )
          .execute();
      // The same former worker asked to see what is held about them: pending, its deadline set.
      if (held.length)
        await trx
          .insertInto(registry.require('rights-request').table)
          .values({
            IdCliente: clientId,
            IdPersona: held[0].IdPersona,
            Tipo: 'A',
            Pais: 'PE',
            FechaRecepcion: '2026-11-23',
            FechaLimite: responseDeadline('PE', 'A', '2026-11-23'),
            Detalle: 'SOLICITA COPIA DE TODOS SUS DATOS PERSONALES Y DE QUIÉN LOS CONSULTÓ',
            Estado: 'P',
            IdUsuarioCreacion: 'SISTEMA',
            FechaCreacion: at,
          })
          .execute();
      return {
        'retention-rule': Object.keys(DEMO_RETENTION).length,
        'legal-hold': held.length,
        'rights-request': held.length,
      };
    },
  },
};
