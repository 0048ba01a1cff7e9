import type { WizardStep } from '../../../../../workflows/wizard.machine.js';
import { type EntityCode, PERSON_FIELDS } from '../../../../shared/accreditation.js';
import type { FieldRule } from '../../../../shared/rules.js';
import type { ResourceMeta } from '../../../../shared/schema/types.js';

type Data = Record<string, unknown>;
/** The request's own fields on each step, by kind (spec section 2's sections). */
export const GENERAL: Record<EntityCode, string[]> = {
  T: [
    'IdContrato',
    'IdPerfilAcreditacion',
    'FechaInicio',
    'FechaFin',
    'IdUnidadOrganizativa',
    'IdCentroCosto',
    'IdPosicion',
    'IdFuncion',
  ],
  V: ['IdContrato', 'IdPerfilAcreditacion', 'FechaInicio', 'FechaFin'],
  P: [
    'IdContrato',
    'IdPerfilAcreditacion',
    'FechaInicio',
    'FechaFin',
    'IdResponsable',
    'MotivoVisita',
    'NumeroVisitantes',
  ],
  // A company is accredited in the division for a period, not for a contract.
  E: ['IdPerfilAcreditacion', 'FechaInicio', 'FechaFin'],
};
export const ADDITIONAL = ['LugarSolicitud', 'Observacion'];
/** The person's sections asked on the personal step; the others (emergency, licence) on the additional one. */
const PERSONAL_SECTIONS = ['general', 'additional'];

/**
 * The worker's fields of each step: by the person's sections, and on the personal step also
 * every field the field rules make required, since the request is created when that step ends.
 */
export function personSteps(meta: ResourceMeta | undefined, rules: FieldRule[] = []) {
  const sectioned = new Set(
    (meta?.schema['x-sections'] ?? [])
      .filter((section) => PERSONAL_SECTIONS.includes(section.name))
      .flatMap((section) => section.fields),
  );
  const required = new Set(rules.filter((r) => r.Obligatorio === 'S').map((r) => r.Campo));
  const personal = PERSON_FIELDS.filter((f) => sectioned.has(f) || required.has(f));
  return { personal, additional: PERSON_FIELDS.filter((f) => !personal.includes(f)) };
}

export const pick = (record: Data | undefined, fields: readonly string[]): Data =>
  Object.fromEntries(
    fields.filter((f) => record?.[f] !== undefined && record?.[f] !== null).map((f) => [f, record?.[f]]),
  );

/** The fields whose dates the wizard checks as the server does. */
export const DATE_FIELDS = ['FechaInicio', 'FechaFin', 'FechaNacimiento'] as const;

/** A step's name: the second one names what it holds (a worker's person, a vehicle, the visitors). */
export const stepLabel = (step: WizardStep, entity: EntityCode) =>
  `accreditation.form.step.${step}${step === 'personal' && entity !== 'T' ? `_${entity}` : ''}`;
