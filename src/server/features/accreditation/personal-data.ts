import { isSensitive } from '../../../shared/data-classes.js';
import type { Row } from '../../crud/types.js';
import type { PersonalDataSource } from '../../personal-data.js';
import type { FeatureContext } from '../feature.js';

/**
 * Accreditation's part in keeping people's data: a worker's relation ends with their last
 * accreditation (a visitor's with their last visit); an accreditation in force (active or
 * suspended) and a request not yet decided keep a person's data; a medical examination's or a
 * criminal-record certificate's values and files on a request's lines go with their class.
 */
export function accreditationPersonalData({ registry }: FeatureContext): PersonalDataSource {
  const t = (name: string) => registry.require(name).table;
  return {
    ends: (db, client) =>
      db
        .selectFrom(t('accreditation'))
        .select(['IdPersona', 'FechaFin as Fin'])
        .where('IdCliente', '=', client)
        .where('IdPersona', 'is not', null)
        .unionAll(
          db
            .selectFrom(`${t('visit-person')} as v`)
            .innerJoin(`${t('request')} as r`, 'r.IdSolicitud', 'v.IdSolicitud')
            .select(['v.IdPersona', 'r.FechaFin as Fin'])
            .where('v.IdCliente', '=', client)
            .where('v.IdPersona', 'is not', null),
        ),
    holds: [
      {
        reason: 'accreditation',
        people: (db, client) =>
          db
            .selectFrom(t('accreditation'))
            .select('IdPersona')
            .where('IdCliente', '=', client)
            .where('Estado', 'in', ['A', 'S'])
            .where('IdPersona', 'is not', null),
      },
      {
        reason: 'request',
        people: (db, client) =>
          db
            .selectFrom(t('request'))
            .select('IdPersona')
            .where('IdCliente', '=', client)
            .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
            .where('IdPersona', 'is not', null),
      },
    ],
    export: async (db, client, person) => {
      const requests = db.selectFrom(t('request')).select('IdSolicitud').where('IdPersona', '=', person);
      const visits = db
        .selectFrom(t('visit-person'))
        .select('IdVisitaPersona')
        .where('IdPersona', '=', person);
      const lines = (await db
        .selectFrom(`${t('request-detail')} as d`)
        .innerJoin(`${t('requirement')} as r`, 'r.IdRequisito', 'd.IdRequisito')
        .selectAll('d')
        .select(['r.Requisito', 'r.ClaseDato'])
        .where('d.IdCliente', '=', client)
        .where((eb) => eb.or([eb('d.IdSolicitud', 'in', requests), eb('d.IdVisitaPersona', 'in', visits)]))
        .orderBy('d.IdDetalle')
        .execute()) as Row[];
      return { 'request-detail': lines };
    },
    erase: async (trx, client, people, dataClass) => {
      if (!isSensitive(dataClass)) return;
      await trx
        .updateTable(t('request-detail'))
        .set({
          Valor: null,
          ClaveArchivo: null,
          NombreArchivo: null,
          TipoArchivo: null,
          FechaVencimiento: null,
        })
        .where('IdCliente', '=', client)
        .where(
          'IdRequisito',
          'in',
          trx.selectFrom(t('requirement')).select('IdRequisito').where('ClaseDato', '=', dataClass),
        )
        .where((eb) =>
          eb.or([
            eb(
              'IdSolicitud',
              'in',
              trx.selectFrom(t('request')).select('IdSolicitud').where('IdPersona', 'in', people),
            ),
            eb(
              'IdVisitaPersona',
              'in',
              trx.selectFrom(t('visit-person')).select('IdVisitaPersona').where('IdPersona', 'in', people),
            ),
          ]),
        )
        .execute();
    },
  };
}
