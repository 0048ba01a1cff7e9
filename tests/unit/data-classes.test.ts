import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/server/registry.js';
import { allowedClasses, DATA_CLASSES } from '../../src/shared/data-classes.js';

const registry = loadRegistry();

/** The entities whose records are a person, a visitor, or a vehicle its owner is known by. */
const ABOUT_PEOPLE = ['person', 'visit-person', 'vehicle'];

describe('data classes of personal data', () => {
  it('tags every field of a person, a visitor and a vehicle with its class in the schema itself', () => {
    for (const name of ABOUT_PEOPLE) {
      const entity = registry.require(name);
      for (const [field, prop] of Object.entries(entity.schema.properties))
        expect(DATA_CLASSES, `${name}.${field}`).toContain(prop['x-dataClass']);
    }
  });

  it("classes a person's blood type, allergy and disability as health data, and nothing else of them", () => {
    expect(registry.require('person').sensitive).toEqual([
      { field: 'IdTipoSangre', dataClass: 'health' },
      { field: 'Alergia', dataClass: 'health' },
      { field: 'Discapacidad', dataClass: 'health' },
    ]);
  });

  it('never lists, searches, sorts, filters or labels records by a sensitive field', () => {
    for (const entity of registry.entities)
      for (const { field } of entity.sensitive)
        for (const [keyword, fields] of Object.entries({
          list: entity.list,
          search: entity.search,
          sortable: entity.sortable,
          filters: entity.filters,
          label: entity.label,
        }))
          expect(fields, `${entity.name}.${field} in x-${keyword}`).not.toContain(field);
  });

  it("reads a sensitive class by the user's own setting where it says S or N, and by the profile's otherwise", () => {
    const profile = { DatosSalud: 'S', DatosAntecedentes: 'N' };
    expect(allowedClasses(profile, {})).toEqual(['health']);
    expect(allowedClasses(profile, { DatosSalud: null, DatosAntecedentes: null })).toEqual(['health']);
    expect(allowedClasses(profile, { DatosSalud: 'N' })).toEqual([]);
    expect(allowedClasses(profile, { DatosAntecedentes: 'S' })).toEqual(['health', 'criminal']);
    expect(allowedClasses({}, {})).toEqual([]);
    expect(allowedClasses(undefined, { DatosSalud: 'S' })).toEqual(['health']);
  });
});
