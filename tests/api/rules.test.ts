/**
 * The validations of spec section 5 and the business rules of the configuration screens, each
 * refused with its message, through the API; and the field rules enforced on the server.
 */
import { describe, expect, it } from 'vitest';
import { rucCheckDigit, rutCheckDigit } from '../../src/shared/check-digits.js';
import { call, listUrl, type SignedIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

type Data = Record<string, unknown>;

describe.each(DIALECTS)('validations and business rules on %s', (dialect) => {
  let admin: SignedIn;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(w.app, { method, url, payload, token: admin.accessToken });
  const first = async (resource: string, filter: Data = {}): Promise<Data> => {
    const res = await api('GET', listUrl(resource, { filter, range: [0, 0] }));
    expect(res.body.length, `a ${resource} with ${JSON.stringify(filter)}`).toBe(1);
    return res.body[0];
  };
  /** A record as a PUT sends it back: its writable fields. */
  const editable = (record: Data, ...drop: string[]) => {
    const out = { ...record };
    for (const key of [
      'id',
      'IdCliente',
      'IdDivision',
      'Edad',
      'FechaCreacion',
      'IdUsuarioCreacion',
      ...drop,
    ])
      delete out[key];
    for (const key of ['FechaModificacion', 'IdUsuarioModificacion']) delete out[key];
    return out;
  };

  const w = world(dialect, {
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin;
    },
  });

  describe('field rules (IdDato, Campo, Obligatorio, Modificable)', () => {
    it('a rule marked Obligatorio makes the field required on the server, on create and update', async () => {
      const rule = await api('POST', '/api/rest/field-rule', {
        IdDato: 'person',
        Campo: 'Alergia',
        Obligatorio: 'S',
        Modificable: 'S',
      });
      expect(rule.status).toBe(201);
      const person = await first('person', { Condicion: 'T' });
      const { Alergia: _omit, ...withoutAllergy } = editable(person);
      const refused = await api('PUT', `/api/rest/person/${person.id}`, withoutAllergy);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.Alergia.messageKey).toBe('validation.required');
      const accepted = await api('PUT', `/api/rest/person/${person.id}`, {
        ...withoutAllergy,
        Alergia: 'POLEN',
      });
      expect(accepted.status).toBe(200);
      // Switched off, the rule no longer applies.
      expect(
        (await api('PUT', `/api/rest/field-rule/${rule.body.id}`, { ...editable(rule.body), Activo: 'N' }))
          .status,
      ).toBe(200);
      expect((await api('PUT', `/api/rest/person/${person.id}`, withoutAllergy)).status).toBe(200);
    });

    it('a rule marked not Modificable keeps an existing record’s field as it is, even from a crafted request', async () => {
      await api('POST', '/api/rest/field-rule', {
        IdDato: 'person',
        Campo: 'Discapacidad',
        Obligatorio: 'N',
        Modificable: 'N',
      });
      const person = await first('person', { Condicion: 'T' });
      const body = editable(person);
      const changed = await api('PUT', `/api/rest/person/${person.id}`, {
        ...body,
        Discapacidad: 'AUDITIVA',
      });
      expect(changed.status).toBe(400);
      expect(changed.body.errors.Discapacidad.messageKey).toBe('validation.notModifiable');
      // Unchanged, the record saves; a new record may still set the field.
      expect((await api('PUT', `/api/rest/person/${person.id}`, body)).status).toBe(200);
    });

    it('answers a form’s rules at its lookup, and refuses rules for unknown forms or fields', async () => {
      const rules = await api('GET', '/api/SistemaReglaCampo/obtenerTodos?IdDato=person');
      expect(rules.status).toBe(200);
      expect(rules.body.result.map((r: Data) => r.Campo)).toEqual(
        expect.arrayContaining(['Discapacidad', 'TelefonoMovil']),
      );
      const unknownForm = await api('POST', '/api/rest/field-rule', {
        IdDato: 'nada',
        Campo: 'Nombre',
        Obligatorio: 'S',
        Modificable: 'S',
      });
      expect(unknownForm.body.errors.IdDato.messageKey).toBe('validation.unknownForm');
      const unknownField = await api('POST', '/api/rest/field-rule', {
        IdDato: 'person',
        Campo: 'IdCliente',
        Obligatorio: 'S',
        Modificable: 'S',
      });
      expect(unknownField.body.errors.Campo.messageKey).toBe('validation.unknownFormField');
    });

    it('binds a rule to the form object that stands for its form, and refuses a form none stands for', async () => {
      const rule = { IdDato: 'guard', Campo: 'Turno', Obligatorio: 'S', Modificable: 'S', Activo: 'S' };
      const without = await api('POST', '/api/rest/field-rule', rule);
      expect(without.status).toBe(400);
      expect(without.body.errors.IdDato.messageKey).toBe('validation.formObjectMissing');
      expect(without.body.errors.IdDato.message).toBe(
        'No active form object stands for the form guard: register it first under System > Form objects.',
      );
      const object = await api('POST', '/api/rest/form-object', {
        IdModulo: 'ADM',
        Codigo: 'FRM_GUARDIA',
        Objeto: 'GUARDIAS',
        Tipo: 'F',
        Recurso: 'guard',
        Activo: 'S',
      });
      expect(object.status, JSON.stringify(object.body)).toBe(201);
      const bound = await api('POST', '/api/rest/field-rule', rule);
      expect(bound.status, JSON.stringify(bound.body)).toBe(201);
      expect(bound.body.IdObjeto).toBe(object.body.IdObjeto);
      // The demo's rules are bound to theirs.
      const person = (await api('GET', '/api/SistemaReglaCampo/obtenerTodos?IdDato=person')).body
        .result as Data[];
      const objects = (await api('GET', listUrl('form-object'))).body as Data[];
      const personForm = objects.find((o) => o.Codigo === 'FRM_PERSONA') as Data;
      const stored = (await api('GET', listUrl('field-rule'))).body as Data[];
      const personRules = stored.filter((r) => r.IdDato === 'person');
      expect(person.length).toBeGreaterThan(0);
      expect(personRules.length).toBe(person.length);
      expect(personRules.filter((r) => r.IdObjeto === personForm.IdObjeto)).toHaveLength(person.length);
      await api('DELETE', `/api/rest/field-rule/${bound.body.IdReglaCampo}`);
    });
  });

  describe('section 5 validations', () => {
    it('refuses an end date before the start date', async () => {
      const contract = await first('contract');
      const res = await api('PUT', `/api/rest/contract/${contract.id}`, {
        ...editable(contract),
        FechaInicio: '2026-06-01',
        FechaFin: '2026-05-31',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.FechaFin.messageKey).toBe('validation.endBeforeStart');
      expect(res.body.errors.FechaFin.message).toBe('The end date cannot be earlier than the start date');
    });

    it('checks a document against its type: characters, length, mask and check digit', async () => {
      const types = (await api('GET', listUrl('document-type'))).body as Data[];
      const type = (country: string, alias: string) =>
        types.find((d) => d.IdPais === country && d.Alias === alias)?.id;
      const person = await first('person', { Condicion: 'T' });
      const body = editable(person);
      const document = async (IdTipoDocumento: unknown, Documento: string) =>
        api('PUT', `/api/rest/person/${person.id}`, { ...body, IdTipoDocumento, Documento });
      const dni = type('PE', 'DNI');
      expect((await document(dni, '4012345')).body.errors.Documento.messageKey).toBe(
        'validation.document.exactLength',
      );
      expect((await document(dni, '4012345A')).body.errors.Documento.messageKey).toBe(
        'validation.document.characters',
      );
      const run = type('CH', 'RUN');
      const body8 = '12345678';
      const good = `${body8}${rutCheckDigit(body8)}`;
      const bad = `${body8}${rutCheckDigit(body8) === '1' ? '2' : '1'}`;
      expect((await document(run, bad)).body.errors.Documento.messageKey).toBe(
        'validation.document.checkDigit',
      );
      expect((await document(run, good)).status).toBe(200);
      // Written as people read it (12.345.678-5), it is accepted and kept bare.
      const written = await document(run, '12.345.678-5');
      expect(written.status).toBe(200);
      expect(written.body.Documento).toBe('123456785');
      expect((await document(run, '12.345.678-4')).body.errors.Documento.messageKey).toBe(
        'validation.document.checkDigit',
      );
      expect((await document(run, '1234567890')).body.errors.Documento.messageKey).toBe(
        'validation.document.maxLength',
      );

      const company = await first('company', { Contratista: 'S' });
      const ruc = `2060000000${rucCheckDigit('2060000000')}`;
      const wrongRuc = `2060000000${(rucCheckDigit('2060000000') + 1) % 10}`;
      const companyBody = editable(company);
      const refused = await api('PUT', `/api/rest/company/${company.id}`, {
        ...companyBody,
        IdTipoDocumento: type('PE', 'RUC'),
        Documento: wrongRuc,
      });
      expect(refused.body.errors?.Documento?.messageKey).toBe('validation.document.checkDigit');
      // The demo's rule keeps a company's document unmodifiable: a new company takes the good one.
      const fresh = await api('POST', '/api/rest/company', {
        ...companyBody,
        IdCompania: undefined,
        Alias: 'NUEVA',
        Compania: 'CONTRATISTA NUEVA S.A.C.',
        IdTipoDocumento: type('PE', 'RUC'),
        Documento: ruc,
      });
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    });

    it('keeps names to letters, phones to digits, e-mails valid, and upper-cases what the spec lists', async () => {
      const person = await first('person', { Condicion: 'T' });
      const body = editable(person);
      const res = await api('PUT', `/api/rest/person/${person.id}`, {
        ...body,
        Nombre: 'JUAN2',
        TelefonoMovil: '98A',
        Email: 'no-es-correo',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.Nombre.messageKey).toBe('validation.patterns.letters');
      expect(res.body.errors.TelefonoMovil.messageKey).toBe('validation.patterns.numeric');
      expect(res.body.errors.Email.messageKey).toBe('validation.format.email');
      const ok = await api('PUT', `/api/rest/person/${person.id}`, {
        ...body,
        Alergia: 'polen',
        Observacion: 'sin observación',
      });
      expect(ok.body.Alergia).toBe('POLEN');
      expect(ok.body.Observacion).toBe('SIN OBSERVACIÓN');
    });

    it('asks for the hours of a restriction that is not for the full day', async () => {
      const existing = await first('restriction', { DiaCompleto: 'N' });
      const record = editable(existing, 'IdRestriccion', 'HoraInicio', 'HoraFin');
      const refused = await api('POST', '/api/rest/restriction', record);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.HoraInicio.messageKey).toBe('validation.required');
      expect(refused.body.errors.HoraFin.messageKey).toBe('validation.required');
      expect(Object.keys(refused.body.errors).sort()).toEqual(['HoraFin', 'HoraInicio']);
      const fullDay = await api('POST', '/api/rest/restriction', { ...record, DiaCompleto: 'S' });
      expect(fullDay.status, JSON.stringify(fullDay.body)).toBe(201);
      const withHours = await api('POST', '/api/rest/restriction', {
        ...record,
        HoraInicio: '06:00',
        HoraFin: '18:00',
      });
      expect(withHours.status, JSON.stringify(withHours.body)).toBe(201);
    });

    it('requires a menu’s order and level, numeric', async () => {
      const base = { Modulo: 'system', Tag: 'app.modules.system', IdAplicacion: 'AP03', Activo: 'S' };
      const noOrder = await api('POST', '/api/rest/menu', { ...base, IdMenu: '98' });
      expect(noOrder.body.errors.Orden.messageKey).toBe('validation.required');
      const textOrder = await api('POST', '/api/rest/menu', { ...base, IdMenu: '98', Orden: 'uno' });
      expect(textOrder.body.errors.Orden.messageKey).toBe('validation.type.integer');
      const badLevel = await api('POST', '/api/rest/menu', { ...base, IdMenu: '9A', Orden: 1 });
      expect(badLevel.status).toBe(400);
      expect(badLevel.body.errors.IdMenu).toBeDefined();
    });
  });

  describe('business rules', () => {
    it('keeps trees as trees: no record under itself or under one of its own', async () => {
      const top = await first('organisational-unit', { q: 'GERENCIA GENERAL' });
      const below = await first('organisational-unit', {
        IdUnidadOrganizativaPadre: top.id,
        q: 'ADMINISTRACIÓN',
      });
      for (const parent of [top.id, below.id]) {
        const res = await api('PUT', `/api/rest/organisational-unit/${top.id}`, {
          ...editable(top, 'IdUnidadOrganizativa'),
          IdUnidadOrganizativaPadre: parent,
        });
        expect(res.status, String(parent)).toBe(400);
        expect(res.body.code).toBe('BUSINESS_RULE');
        expect(res.body.errors.IdUnidadOrganizativaPadre.messageKey).toBe('rules.treeCycle');
      }
      // Out of the tree is always possible.
      const moved = await api('PUT', `/api/rest/organisational-unit/${below.id}`, {
        ...editable(below, 'IdUnidadOrganizativa'),
        IdUnidadOrganizativaPadre: null,
      });
      expect(moved.status).toBe(200);
    });

    it('holiday-template dates and automatic markings cannot be edited or deleted', async () => {
      const template = await first('holiday', { Plantilla: 'S' });
      const edit = await api('PUT', `/api/rest/holiday/${template.id}`, {
        ...editable(template),
        Descripcion: 'OTRO',
      });
      expect(edit.status).toBe(400);
      expect(edit.body.code).toBe('BUSINESS_RULE');
      expect(edit.body.message).toBe('Holiday template dates cannot be edited or deleted.');
      expect((await api('DELETE', `/api/rest/holiday/${template.id}`)).body.messageKey).toBe(
        'rules.holidayTemplate',
      );
      const own = await first('holiday', { Plantilla: 'N' });
      expect(
        (await api('PUT', `/api/rest/holiday/${own.id}`, { ...editable(own), Descripcion: 'DÍA DEL MINERO' }))
          .status,
      ).toBe(200);

      const automatic = await first('marking', { Automatico: 'S' });
      const markingEdit = await api('PUT', `/api/rest/marking/${automatic.id}`, {
        ...editable(automatic),
        Observacion: 'X',
      });
      expect(markingEdit.body.messageKey).toBe('rules.automaticMarking');
      expect((await api('DELETE', `/api/rest/marking/${automatic.id}`)).body.messageKey).toBe(
        'rules.automaticMarking',
      );
      const manual = await first('marking', { Automatico: 'N' });
      expect(
        (await api('PUT', `/api/rest/marking/${manual.id}`, { ...editable(manual), Observacion: 'REVISADA' }))
          .status,
      ).toBe(200);
    });

    it('a person must be ceased before a new position, and a ceased person’s data are read-only', async () => {
      const positions = (await api('GET', listUrl('position'))).body as Data[];
      const working = await first('person', { Condicion: 'T' });
      const other = positions.find((p) => p.id !== working.IdPosicion);
      const move = await api('PUT', `/api/rest/person/${working.id}`, {
        ...editable(working),
        IdPosicion: other?.id,
      });
      expect(move.status).toBe(400);
      expect(move.body.messageKey).toBe('rules.personMustCease');

      const ceased = await first('person', { Condicion: 'C' });
      const rename = await api('PUT', `/api/rest/person/${ceased.id}`, {
        ...editable(ceased),
        Nombre: 'OTRO NOMBRE',
      });
      expect(rename.body.messageKey).toBe('rules.personCeased');
      // Reinstating with a new position is what a ceased person's record still allows.
      const next = positions.find((p) => p.id !== ceased.IdPosicion);
      const back = await api('PUT', `/api/rest/person/${ceased.id}`, {
        ...editable(ceased, 'FechaCese', 'IdMotivoCese'),
        Condicion: 'T',
        IdPosicion: next?.id,
      });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body.IdPosicion).toBe(next?.id);
    });

    it('a new credential cannot be registered while an active one exists', async () => {
      const active = await first('credential', { Activo: 'S' });
      const { IdCredencial: _key, ...copy } = editable(active);
      const second = await api('POST', '/api/rest/credential', { ...copy, Numero: 'FC-NUEVA-01' });
      expect(second.status).toBe(400);
      expect(second.body.message).toBe('A new credential cannot be registered while an active one exists.');
      const inactive = await api('POST', '/api/rest/credential', {
        ...copy,
        Numero: 'FC-NUEVA-02',
        Activo: 'N',
      });
      expect(inactive.status, JSON.stringify(inactive.body)).toBe(201);
    });

    it('reports an interval that already exists, and copies Monday to the other days', async () => {
      const schedule = await api('POST', '/api/rest/schedule', {
        Descripcion: 'TURNO DE PRUEBA',
        Activo: 'S',
      });
      const IdHorario = schedule.body.id;
      const interval = (Dia: number, HoraInicio: string, HoraFin: string) =>
        api('POST', '/api/rest/schedule-interval', { IdHorario, Dia, HoraInicio, HoraFin, Activo: 'S' });
      expect((await interval(1, '08:00', '12:00')).status).toBe(201);
      expect((await interval(1, '13:00', '17:00')).status).toBe(201);
      const overlap = await interval(1, '11:00', '14:00');
      expect(overlap.status).toBe(400);
      expect(overlap.body.messageKey).toBe('rules.intervalExists');
      expect((await interval(3, '09:00', '10:00')).status).toBe(201);

      const copy = (payload: Data) => api('POST', '/api/AccesoHorario/copiarDia', { IdHorario, ...payload });
      expect((await copy({ Dias: [] })).body.messageKey).toBe('rules.selectDay');
      const ask = await copy({ Dias: [2, 3, 4, 5] });
      expect(ask.status).toBe(409);
      expect(ask.body.messageKey).toBe('rules.intervalsExistReplace');
      const done = await copy({ Dias: [2, 3, 4, 5], Reemplazar: true });
      expect(done.status).toBe(200);
      expect(done.body.result.copied).toBe(8);
      const rows = (await api('GET', listUrl('schedule-interval', { filter: { IdHorario }, range: [0, 99] })))
        .body as Data[];
      for (const day of [1, 2, 3, 4, 5])
        expect(
          rows
            .filter((r) => r.Dia === day)
            .map((r) => `${r.HoraInicio}-${r.HoraFin}`)
            .sort(),
        ).toEqual(['08:00-12:00', '13:00-17:00']);
    });

    it('days to release a hotel reservation must be greater than 0, and a camp profile needs a company', async () => {
      const camp = await first('camp');
      const body = editable(camp);
      const none = await api('PUT', `/api/rest/camp/${camp.id}`, {
        ...body,
        LiberarReserva: 'S',
        DiasLiberarReserva: undefined,
      });
      expect(none.body.errors.DiasLiberarReserva.message).toBe(
        'The days to release a reservation must be greater than 0.',
      );
      const zero = await api('PUT', `/api/rest/camp/${camp.id}`, {
        ...body,
        LiberarReserva: 'S',
        DiasLiberarReserva: 0,
      });
      expect(zero.body.errors.DiasLiberarReserva.messageKey).toBe('rules.releaseDays');

      const profile = await first('camp-profile');
      const empty = await api('PUT', `/api/rest/camp-profile/${profile.id}`, {
        ...editable(profile),
        Companias: [],
      });
      expect(empty.status).toBe(400);
      expect(empty.body.errors.Companias.messageKey).toBe('rules.campProfileCompany');
    });
  });

  describe('cascading references and sets of references', () => {
    it('a cascading choice must belong to the choice above it', async () => {
      const restriction = await first('restriction');
      const doors = (await api('GET', listUrl('door', { range: [0, 99] }))).body as Data[];
      const zone = restriction.IdZona ?? doors[0].IdZona;
      const elsewhere = doors.find((d) => d.IdZona !== zone);
      expect(elsewhere, 'a door of another zone').toBeDefined();
      const res = await api('PUT', `/api/rest/restriction/${restriction.id}`, {
        ...editable(restriction),
        IdZona: zone,
        IdPuerta: elsewhere?.id,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.IdPuerta.messageKey).toBe('validation.referenceFilter');
    });

    it('keeps a set of references, filters by it, replaces it, and protects what it points at', async () => {
      const doors = (await api('GET', listUrl('door', { range: [0, 2] }))).body as Data[];
      const schedule = await first('schedule');
      const group = await api('POST', '/api/rest/access-group', {
        Descripcion: 'GRUPO DE PRUEBA',
        IdHorario: schedule.id,
        Puertas: [doors[0].id, doors[1].id],
        Activo: 'S',
      });
      expect(group.status).toBe(201);
      expect([...group.body.Puertas].sort()).toEqual([doors[0].id, doors[1].id].sort());
      const byDoor = (
        await api('GET', listUrl('access-group', { filter: { Puertas: doors[1].id }, range: [0, 99] }))
      ).body as Data[];
      expect(byDoor.map((g) => g.id)).toContain(group.body.id);
      const door = (await api('GET', `/api/rest/door/${doors[0].id}`)).body;
      expect((await api('DELETE', `/api/rest/door/${door.id}`)).status).toBe(409);
      const replaced = await api('PUT', `/api/rest/access-group/${group.body.id}`, {
        ...editable(group.body),
        Puertas: [doors[2].id],
      });
      expect(replaced.body.Puertas).toEqual([doors[2].id]);
      const missing = await api('PUT', `/api/rest/access-group/${group.body.id}`, {
        ...editable(group.body),
        Puertas: [987654],
      });
      expect(missing.body.errors.Puertas.messageKey).toBe('validation.referenceMissing');
    });
  });
});
