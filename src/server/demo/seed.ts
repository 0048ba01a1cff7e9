import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Accounts } from '../auth/accounts.js';
import { hashPassword } from '../auth/passwords.js';
import { CrudService } from '../crud/service.js';
import type { Row } from '../crud/types.js';
import type { Database } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { FEATURES, featureHooks } from '../features/index.js';
import { SYSTEM_PRINCIPAL } from '../plugins/auth.js';
import type { Principal } from '../principal.js';
import { loadLocations } from '../reference/locations.js';
import type { Entity, Registry } from '../registry.js';
import { type FileStore, fileStoreFor } from '../storage/files.js';
import {
  BLOOD_TYPES,
  CIVIL_STATUSES,
  COMPANIES,
  COMPANY_CATEGORIES,
  COUNTRIES,
  DOCUMENT_TYPES,
} from './data.js';
import { generatePeople } from './people.js';
import {
  DEMO_CLIENT,
  DEMO_CONTRACTS,
  DEMO_CURRENCY,
  DEMO_DIVISIONS,
  DEMO_GRANTS,
  DEMO_PASSWORD,
  DEMO_PROFILES,
  DEMO_ROLES,
  DEMO_SETTINGS,
  DEMO_USERS,
  demoMenu,
} from './security.js';
import { staffDemoPeople } from './staffing.js';

export const DEMO_PEOPLE = 48;

/** Records of `<entity>.demo.json` beside `<entity>.schema.json`, when there is one. */
export function demoRecords(entity: Entity): object[] {
  const file = entity.file.replace(/\.schema\.json$/, '.demo.json');
  if (!existsSync(file)) return [];
  const records: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(records)) throw new Error(`${file} must hold an array of records`);
  return records;
}

/** True when no entity table holds a row: a first start. */
export async function isEmpty(database: Database, registry: Registry): Promise<boolean> {
  for (const entity of registry.entities) {
    if (await database.db.selectFrom(entity.table).select(entity.primaryKey).limit(1).executeTakeFirst())
      return false;
  }
  return true;
}

export interface SeedReport {
  [resource: string]: number;
}

/**
 * Loads the demo data set through the same service the API uses (so it is validated like user
 * input), in one transaction: reference data, a client with two divisions, its contractors and
 * their people and contracts, and the security set-up with the demo accounts. With `replace`,
 * every entity table is emptied first.
 */
export async function seedDemo(
  database: Database,
  registry: Registry,
  options: { replace?: boolean; files?: FileStore } = {},
): Promise<SeedReport> {
  return database.db.transaction().execute(async (trx) => {
    if (options.replace) {
      for (const entity of [...registry.inDependencyOrder()].reverse())
        await trx.deleteFrom(entity.table).execute();
    }
    const crud = new CrudService(database, registry).within(trx);
    const report: SeedReport = {};
    const create = async (resource: string, data: object, principal: Principal = SYSTEM_PRINCIPAL) => {
      report[resource] = (report[resource] ?? 0) + 1;
      return crud.create(registry.require(resource), data, principal);
    };
    const idOf = (record: { id: unknown }) => record.id as number;

    for (const country of COUNTRIES) await create('country', country);
    report.ubigeo = await loadLocations(trx, registry);
    const documentTypes = new Map<string, number>();
    for (const type of DOCUMENT_TYPES) {
      documentTypes.set(`${type.IdPais}:${type.Alias}`, idOf(await create('document-type', type)));
    }
    const bloodTypes: number[] = [];
    for (const type of BLOOD_TYPES) bloodTypes.push(idOf(await create('blood-type', type)));
    const civilStatuses: number[] = [];
    for (const status of CIVIL_STATUSES) civilStatuses.push(idOf(await create('civil-status', status)));
    const categories = new Map<string, number>();
    for (const category of COMPANY_CATEGORIES) {
      categories.set(category.Categoria, idOf(await create('company-category', category)));
    }

    const clientId = idOf(await create('client', { ...DEMO_CLIENT, Documento: COMPANIES[0].Documento }));
    const atClient: Principal = { userId: SYSTEM_PRINCIPAL.userId, clientId };
    const divisions: number[] = [];
    for (const division of DEMO_DIVISIONS) divisions.push(idOf(await create('division', division, atClient)));

    const companies = new Map<string, number>();
    const contractors: Array<{ id: number; country: 'PE' | 'CH' }> = [];
    for (const { documentAlias, category, ...company } of COMPANIES) {
      const id = idOf(
        await create(
          'company',
          {
            ...company,
            IdTipoDocumento: documentTypes.get(`${company.IdPais}:${documentAlias}`),
            IdCategoriaCompania: categories.get(category),
          },
          atClient,
        ),
      );
      companies.set(company.Alias as string, id);
      if (company.Contratista === 'S') contractors.push({ id, country: company.IdPais as 'PE' | 'CH' });
    }
    const people = generatePeople(DEMO_PEOPLE, {
      dniPeru: documentTypes.get('PE:DNI') as number,
      runChile: documentTypes.get('CH:RUN') as number,
      companies: contractors,
      bloodTypes,
      civilStatuses,
    });
    for (const person of people) await create('person', person, atClient);

    for (const contract of DEMO_CONTRACTS) {
      const { company, division, operators: _operators, ...fields } = contract;
      await create(
        'contract',
        {
          ...fields,
          IdCompaniaContratista: companies.get(company),
          IdCompaniaMandante: companies.get('MINANDES'),
          FechaFinOriginal: fields.FechaFin,
          TipoDotacion: 'TipoDotacion' in fields ? fields.TipoDotacion : 'C',
          Activo: 'S',
        },
        { ...atClient, divisionId: divisions[division] },
      );
    }

    const settings: Record<string, number> = {};
    for (const [key, setting] of Object.entries(DEMO_SETTINGS)) {
      settings[key] = idOf(await create('login-setting', setting, atClient));
    }
    for (const role of DEMO_ROLES) await create('accreditation-role', role);
    const profiles: Record<string, number> = {};
    for (const [key, { characteristic, ...profile }] of Object.entries(DEMO_PROFILES)) {
      profiles[key] = idOf(await create('profile', { ...profile, Activo: 'S' }, atClient));
      if (characteristic)
        await create(
          'profile-characteristic',
          { IdPerfil: profiles[key], IdCaracteristica: characteristic, Activo: 'S' },
          atClient,
        );
    }
    const menu = demoMenu(registry);
    for (const { resource: _resource, route: _route, ...item } of menu) await create('menu', item);
    for (const [key, grant] of Object.entries(DEMO_GRANTS)) {
      for (const item of menu) {
        const access = grant(item);
        if (!access) continue;
        await create(
          'menu-profile',
          {
            IdPerfil: profiles[key],
            IdMenu: item.IdMenu,
            SoloLectura: access === 'read' ? 'S' : 'N',
            Activo: 'S',
          },
          atClient,
        );
      }
    }

    const accounts = new Accounts(trx, registry);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const { setting, assignments, ...user } of DEMO_USERS) {
      await create(
        'user',
        {
          ...user,
          IdConfiguracionLogeo: settings[setting],
          SuperAdministrador: 'N',
          ValidarDirectorio: 'N',
          Bloqueado: 'N',
          PrimeraClaveCambiada: 'S',
          Activo: 'S',
        },
        atClient,
      );
      await accounts.storePassword(user.IdUsuario, passwordHash, Date.now());
      const period = DEMO_SETTINGS[setting].PeriodoCaducidadDias;
      await accounts.updateUser(user.IdUsuario, {
        FechaCaducidadClave: new Date(Date.now() + period * 86_400_000).toISOString(),
      });
      for (const assignment of assignments) {
        await create(
          'user-profile',
          {
            IdUsuario: user.IdUsuario,
            IdPerfil: profiles[assignment.profile],
            IdDivision: divisions[assignment.division],
            IdCompania: assignment.company ? companies.get(assignment.company) : undefined,
            IdRolAcreditacion: assignment.role,
            PorDefecto: assignment.default ? 'S' : 'N',
            Activo: 'S',
          },
          atClient,
        );
      }
    }

    // The contracts' operators 1 and 2, now that their users exist.
    for (const { NumeroContrato, operators } of DEMO_CONTRACTS)
      await trx
        .updateTable(registry.require('contract').table)
        .set({ IdOperador1: operators[0], IdOperador2: operators[1] ?? null })
        .where('NumeroContrato', '=', NumeroContrato)
        .execute();

    // Any other entity may bring its demo records in a file beside its schema, checked by the
    // same business rules as the API's writes.
    // (The security area's rules mail temporary passwords: the demo accounts get theirs below.)
    const rules = featureHooks(
      { registry, notifier: undefined as never, now: Date.now },
      FEATURES.filter((f) => f.name !== 'security'),
    );
    const checked = new CrudService(database, registry, rules).within(trx);
    for (const entity of registry.inDependencyOrder()) {
      if (report[entity.name] || entity.readOnly || entity.workflow) continue;
      for (const [index, record] of demoRecords(entity).entries()) {
        const { $division, ...fields } = record as { $division?: number } & Row;
        const principal: Principal = { ...atClient, divisionId: divisions[$division ?? 0] };
        if (principal.divisionId === undefined)
          throw new Error(`${entity.name} #${index}: no division ${$division}`);
        const resolved = await resolveDemoRefs(crud, registry, entity, fields, principal).catch(
          (error: Error) => {
            throw new Error(`${entity.name} demo record #${index}: ${error.message}`);
          },
        );
        report[entity.name] = (report[entity.name] ?? 0) + 1;
        await checked.create(entity, resolved, principal).catch((error: unknown) => {
          const detail =
            error instanceof ApiError
              ? `${error.code} ${JSON.stringify(error.fields ?? error.params)}`
              : String(error);
          throw new Error(`${entity.name} demo record #${index}: ${detail}`);
        });
      }
    }
    await trx
      .updateTable(registry.require('client').table)
      .set({ IdMoneda: DEMO_CURRENCY })
      .where('IdCliente', '=', clientId)
      .execute();
    await staffDemoPeople(trx, registry, clientId);
    const files = options.files ?? fileStoreFor(database, mkdtempSync(join(tmpdir(), 'acr-demo-files-')));
    // Each feature's own demo data, in their order (the requests and accreditations first).
    const demos = FEATURES.flatMap((f) => (f.demo ? [f.demo] : [])).sort((a, b) => a.order - b.order);
    const ctx = { trx, dialect: database.dialect, registry, files, clientId, now: Date.now() };
    for (const demo of demos) Object.assign(report, await demo.seed(ctx));
    return report;
  });
}

/**
 * Demo files name referenced records by their fields rather than by generated ids:
 * `"IdZona": { "$ref": { "Descripcion": "GARITA PRINCIPAL" } }` becomes the key of the one record
 * of the referenced entity, within the session's scope, that has those values.
 */
export async function resolveDemoRefs(
  crud: CrudService,
  registry: Registry,
  entity: Entity,
  record: Row,
  principal: Principal,
): Promise<Row> {
  const out: Row = {};
  const resolve = async (field: string, value: unknown): Promise<unknown> => {
    if (typeof value !== 'object' || value === null || !('$ref' in value)) return value;
    const target = entity.schema.properties[field]?.['x-ref']?.resource;
    if (!target) throw new Error(`${field} is not a reference`);
    // The fields that name the record may name records of their own: `{ "$ref": { ... } }` again.
    const where = await resolveDemoRefs(
      crud,
      registry,
      registry.require(target),
      (value as { $ref: Row }).$ref,
      principal,
    );
    const keys = await crud.findKeys(registry.require(target), where, principal);
    if (keys.length !== 1)
      throw new Error(`${field}: ${keys.length} ${target} records match ${JSON.stringify(where)}`);
    return keys[0];
  };
  for (const [field, value] of Object.entries(record)) {
    out[field] = Array.isArray(value)
      ? await Promise.all(value.map((item) => resolve(field, item)))
      : await resolve(field, value);
  }
  return out;
}
