/**
 * A walk over every schema, generated from the registry: for each writable entity, in dependency
 * order, a valid record is created through the API and read back field by field, an invalid one
 * is refused with its field named, and at the end every record created is deleted again.
 */
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/server/registry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { call, listUrl, type SignedIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { expectedValue, RecordMaker } from '../support/records.js';
import { world } from '../support/world.js';

type Data = Record<string, unknown>;

const registry = loadRegistry();
const writable = registry.inDependencyOrder().filter((e) => !e.readOnly && !e.workflow);

/** Values a business rule needs that a schema alone cannot say. */
const OVERRIDES: Record<string, Data> = {
  menu: { IdMenu: '99', IdMenuPadre: undefined },
  'field-rule': { IdDato: 'person', Campo: 'Alergia' },
  holiday: { Plantilla: 'N' },
  marking: { Automatico: 'N' },
  // By position type or by cost category, one of the two.
  'dining-cost-assignment': { IdCategoriaCosto: undefined },
  // Operator 2 is another user than operator 1 (or none).
  contract: { IdOperador2: undefined },
  // Hours per weekday are a weekly schedule's, and its break lies within them.
  'schedule-type': { Tipo: 'S' },
  'schedule-day': {
    HoraEntrada: '08:00',
    HoraSalida: '17:00',
    InicioRefrigerio: '13:00',
    FinRefrigerio: '14:00',
  },
  // An active justification, an absence (no hours), with the observation it may require.
  justification: { Activo: 'S' },
  'person-justification': { Tipo: 'F', Horas: undefined, Observacion: 'DESCANSO MÉDICO' },
  // Codes by SMS need an SMS centre (SMPP_URL), which this suite's server has not.
  'login-setting': { NotificarPor: 'C' },
  // A code no country's official list uses (the demo has Peru's and Chile's).
  ubigeo: { Codigo: '999999999' },
  // A new induction session cannot be in the past.
  'training-session': { Fecha: '2099-01-15' },
};

type Api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => ReturnType<typeof call>;

/**
 * Entities whose unique values the demo data already exhaust (eight blood groups, one path per
 * use): the walk frees one first, deleting a record nothing refers to, and reuses its value.
 */
const FREE_A_VALUE: Record<string, (api: Api, record: Data) => Promise<Data>> = {
  // A subcontractor is another company than the contract's contractor.
  async 'contract-subcontractor'(api, record) {
    const contract = (await api('GET', `/api/rest/contract/${record.IdContrato}`)).body as Data;
    const companies = (await api('GET', listUrl('company', { range: [0, 99] }))).body as Data[];
    const other = companies.find((c) => c.id !== contract.IdCompaniaContratista);
    if (!other) throw new Error('no other company');
    return { IdCompania: other.id };
  },
  // One rule per data class: the demo's of a class makes room.
  async 'retention-rule'(api) {
    const [rule] = (await api('GET', listUrl('retention-rule'))).body as Data[];
    if ((await api('DELETE', `/api/rest/retention-rule/${rule.id}`)).status !== 200)
      throw new Error('rule in use');
    return { ClaseDato: rule.ClaseDato };
  },
  async 'blood-type'(api) {
    for (const type of (await api('GET', listUrl('blood-type'))).body as Data[]) {
      if ((await api('DELETE', `/api/rest/blood-type/${type.id}`)).status === 200)
        return { TipoSangre: type.TipoSangre };
    }
    throw new Error('every blood type is in use');
  },
  // A trip needs a route, a bus accredited that day and a driver with its licence, free then: the demo's
  // trip of tomorrow's, later in the evening.
  async trip(api) {
    const tomorrow = addDays(siteDate('PE'), 1);
    const trips = (await api('GET', `/api/transporte/viajes?fecha=${tomorrow}`)).body.result as Data[];
    const [demo] = trips;
    if (!demo) throw new Error('no demo trip tomorrow');
    return {
      IdRuta: demo.IdRuta,
      IdBus: demo.IdBus,
      IdConductor: demo.IdConductor,
      Fecha: tomorrow,
      Hora: '21:00',
    };
  },
  async 'repository-path'(api) {
    const [path] = (await api('GET', listUrl('repository-path', { range: [0, 0] }))).body as Data[];
    expect((await api('DELETE', `/api/rest/repository-path/${path.id}`)).status).toBe(200);
    return { Uso: path.Uso };
  },
};

describe.each(DIALECTS)('every entity through the API on %s', (dialect) => {
  let admin: SignedIn;
  const created = new Map<string, Data>();
  const maker = new RecordMaker(registry, 20261121);
  const api: Api = (method, url, payload) => call(w.app, { method, url, payload, token: admin.accessToken });

  const w = world(dialect, {
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin;
    },
  });

  const context = {
    async reference(resource: string): Promise<Data> {
      const mine = created.get(resource);
      if (mine) return mine;
      const res = await api('GET', listUrl(resource, { range: [0, 0] }));
      expect(res.status, `list ${resource}`).toBe(200);
      expect(res.body.length, `a ${resource} to refer to`).toBe(1);
      return res.body[0];
    },
    async document() {
      const types = await api('GET', listUrl('document-type', { filter: { IdPais: 'PE', q: 'DNI' } }));
      const dni = types.body.find((d: Data) => d.Alias === 'DNI');
      return { typeId: dni.id, value: `7${String(Math.floor(Math.random() * 9_999_999)).padStart(7, '0')}` };
    },
  };

  it.each(writable.map((e) => [e.name, e] as const))(
    '%s: creates a valid record, reads it back and refuses an invalid one',
    async (_name, entity) => {
      const made = { ...(await maker.record(entity, context)), ...OVERRIDES[entity.name] };
      const record = { ...made, ...(await FREE_A_VALUE[entity.name]?.(api, made)) };
      const res = await api('POST', `/api/rest/${entity.name}`, record);
      expect(res.status, JSON.stringify({ record, answer: res.body })).toBe(201);
      created.set(entity.name, res.body);

      const back = await api('GET', `/api/rest/${entity.name}/${encodeURIComponent(String(res.body.id))}`);
      expect(back.status).toBe(200);
      for (const [field, sent] of Object.entries(record)) {
        if (sent === undefined) continue;
        if (entity.secrets.includes(field)) {
          expect(back.body, field).not.toHaveProperty(field);
          continue;
        }
        const prop = entity.schema.properties[field];
        const got = back.body[field];
        if (Array.isArray(sent)) expect([...got].sort(), field).toEqual([...sent].sort());
        else expect(got, field).toEqual(expectedValue(prop, sent));
      }

      // Invalid: a required text too long, or a required number given as text.
      const field =
        entity.schema.required?.find(
          (f) => entity.writable.includes(f) && !entity.schema.properties[f].enum,
        ) ?? entity.writable.find((f) => f !== entity.primaryKey);
      expect(field, 'a field to spoil').toBeDefined();
      const prop = entity.schema.properties[field as string];
      const spoilt =
        prop.type === 'string'
          ? 'X'.repeat((prop.maxLength ?? 4000) + 1)
          : prop.type === 'array'
            ? 'x'
            : 'not a number';
      const refused = await api('POST', `/api/rest/${entity.name}`, { ...record, [field as string]: spoilt });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(Object.keys(refused.body.errors ?? {}), JSON.stringify(refused.body)).toContain(field);
    },
  );

  it('deletes every record it created, the last first', async () => {
    for (const entity of [...writable].reverse()) {
      const record = created.get(entity.name);
      if (!record) continue;
      const res = await api('DELETE', `/api/rest/${entity.name}/${encodeURIComponent(String(record.id))}`);
      expect(res.status, `${entity.name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(created.size).toBe(writable.length);
  });
});
