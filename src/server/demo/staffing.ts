import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';
import { random } from './people.js';

type Row = Record<string, unknown>;

/**
 * Gives the demo people what the organisation's screens define, once those are loaded: a worker
 * type, position, cost centre, regime and guard, birth and residence locations, a driving licence
 * for some, and a cessation reason for the ceased. Deterministic, like the people themselves.
 */
export async function staffDemoPeople(db: Db, registry: Registry, clientId: number): Promise<number> {
  const rnd = random(7);
  const pick = <T>(list: readonly T[]): T | undefined =>
    list.length ? list[Math.floor(rnd() * list.length)] : undefined;
  const all = async (resource: string, where: Row = {}): Promise<Row[]> => {
    const entity = registry.get(resource);
    if (!entity) return [];
    let qb = db.selectFrom(entity.table).selectAll();
    if (entity.scope.client) qb = qb.where(entity.scope.client, '=', clientId);
    for (const [field, value] of Object.entries(where)) qb = qb.where(field, '=', value);
    return (await qb.orderBy(entity.primaryKey).execute()) as Row[];
  };
  const positions = await all('position', { Activo: 'S' });
  const costCentres = await all('cost-centre', { Activo: 'S' });
  const workerTypes = await all('position-type', { Activo: 'S' });
  const regimes = await all('regime', { Activo: 'S' });
  const guards = await all('guard', { Activo: 'S' });
  const reasons = await all('cessation-reason', { Activo: 'S' });
  const districts = {
    PE: await all('ubigeo', { IdPais: 'PE', Nivel: 3 }),
    CH: await all('ubigeo', { IdPais: 'CH', Nivel: 3 }),
  };
  const licences = {
    PE: await all('driving-licence', { IdPais: 'PE', Activo: 'S' }),
    CH: await all('driving-licence', { IdPais: 'CH', Activo: 'S' }),
  };
  // The transport contractor's drivers hold the class that drives a bus (the top of the country's A line);
  // the other drivers a professional class of that line (nobody rides a motorcycle on a mine's roads).
  const transport = new Set((await all('company', { Alias: 'TRANSALTI' })).map((c) => c.IdCompania));
  const busClass = { PE: 'A-IIIC', CH: 'A3' } as const;
  const vanClass = { PE: 'A-IIB', CH: 'A2' } as const;
  const named = (country: 'PE' | 'CH', category: string) =>
    licences[country].find((l) => String(l.Categoria).toUpperCase() === category);
  const people = registry.require('person');
  const rows = await all('person');
  for (const [index, person] of rows.entries()) {
    const country = (person.IdPaisNacimiento === 'CH' ? 'CH' : 'PE') as 'PE' | 'CH';
    const home = (person.IdPaisResidencia === 'CH' ? 'CH' : 'PE') as 'PE' | 'CH';
    // The places in words agree with the districts chosen for them.
    const born = pick(districts[country]);
    const lives = pick(districts[home]);
    const regime = pick(regimes);
    const guard = pick(guards.filter((g) => g.IdRegimen === regime?.IdRegimen));
    const drives = index % 3 === 0;
    const picked = drives ? pick(licences[country]) : undefined;
    const licence = !picked
      ? undefined
      : transport.has(person.IdCompania)
        ? (named(country, busClass[country]) ?? picked)
        : !String(picked.Categoria).toUpperCase().startsWith('A')
          ? (named(country, vanClass[country]) ?? picked)
          : picked;
    const values: Row = {
      IdTipoPosicion: pick(workerTypes)?.IdTipoPosicion ?? null,
      IdPosicion: pick(positions)?.IdPosicion ?? null,
      IdCentroCosto: pick(costCentres)?.IdCentroCosto ?? null,
      IdRegimen: regime?.IdRegimen ?? null,
      IdGuardia: guard?.IdGuardia ?? null,
      IdUbigeoNacimiento: born?.IdUbigeo ?? null,
      IdUbigeoResidencia: lives?.IdUbigeo ?? null,
      LugarNacimiento: born ? String(born.Nombre).toUpperCase() : person.LugarNacimiento,
      LugarResidencia: lives ? String(lives.Nombre).toUpperCase() : person.LugarResidencia,
      Direccion:
        lives && typeof person.Direccion === 'string'
          ? person.Direccion.replace(/,[^,]*$/, `, ${String(lives.Nombre).toUpperCase()}`)
          : person.Direccion,
      IdPaisLicenciaConducir: licence ? country : null,
      IdLicenciaConducir: licence?.IdLicenciaConducir ?? null,
      NumeroLicenciaConducir: licence ? String(10_000_000 + Math.floor(rnd() * 89_999_999)) : null,
      IdMotivoCese: person.Condicion === 'C' ? (pick(reasons)?.IdMotivoCese ?? null) : null,
    };
    await db.updateTable(people.table).set(values).where(people.primaryKey, '=', person.IdPersona).execute();
  }
  return rows.length;
}
