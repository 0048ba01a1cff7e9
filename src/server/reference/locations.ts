/**
 * The countries' locations in their three levels (spec section 3): Peru's departments, provinces
 * and districts from INEI's ubigeo codes (the ubigeos package), and Chile's regions, provinces and
 * communes from the official territorial codes (chile-dpa.json beside this file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ubigeoData from 'ubigeos/dist/data/index.js';
import type { Db } from '../db/connection.js';
import { REFERENCE_DIR } from '../paths.js';
import type { Registry } from '../registry.js';

export interface LocationRow {
  IdUbigeo: string;
  IdPais: string;
  Codigo: string;
  Nombre: string;
  Nivel: 1 | 2 | 3;
  IdUbigeoPadre: string | null;
  Activo: 'S';
}

interface ChileRegion {
  code: string;
  name: string;
  provinces: Array<{ code: string; name: string; communes: Array<{ code: string; name: string }> }>;
}

const upper = (name: string) => name.toLocaleUpperCase('es');

function row(country: string, code: string, name: string, level: 1 | 2 | 3, parent?: string): LocationRow {
  return {
    IdUbigeo: `${country}${code}`,
    IdPais: country,
    Codigo: code,
    Nombre: upper(name),
    Nivel: level,
    IdUbigeoPadre: parent ? `${country}${parent}` : null,
    Activo: 'S',
  };
}

/** Peru: 2-digit departments, 4-digit provinces, 6-digit districts (INEI). */
export function peruLocations(): LocationRow[] {
  // A CommonJS module: its named exports arrive as properties of the default.
  const { RegionData, ProvinceData, DistrictData } = ubigeoData;
  return [
    ...[...RegionData].map(([code, name]) => row('PE', code, name, 1)),
    ...[...ProvinceData].map(([code, name]) => row('PE', code, name, 2, code.slice(0, 2))),
    ...[...DistrictData].map(([code, name]) => row('PE', code, name, 3, code.slice(0, 4))),
  ];
}

/** Chile: 2-digit regions, 3-digit provinces, 5-digit communes (CUT). */
export function chileLocations(): LocationRow[] {
  const regions = JSON.parse(readFileSync(join(REFERENCE_DIR, 'chile-dpa.json'), 'utf8')) as ChileRegion[];
  return regions.flatMap((region) => [
    row('CH', region.code, region.name, 1),
    ...region.provinces.flatMap((province) => [
      row('CH', province.code, province.name, 2, region.code),
      ...province.communes.map((commune) => row('CH', commune.code, commune.name, 3, province.code)),
    ]),
  ]);
}

/**
 * Loads the locations into an empty ubigeo table in batches (parents first), outside the generic
 * writes: they are reference data, thousands of rows, and checked by the tests instead.
 */
export async function loadLocations(db: Db, registry: Registry): Promise<number> {
  const entity = registry.get('ubigeo');
  if (!entity) return 0;
  const now = new Date().toISOString();
  const rows = [...peruLocations(), ...chileLocations()]
    .sort((a, b) => a.Nivel - b.Nivel)
    .map((r) => ({ ...r, IdUsuarioCreacion: 'SISTEMA', FechaCreacion: now }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto(entity.table)
      .values(rows.slice(i, i + 500))
      .execute();
  }
  return rows.length;
}
