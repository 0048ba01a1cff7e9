/**
 * The user record of the security page's Data tab (spec section 2, /seguridad/usuarioLogin): its
 * fields, and which of them a user may change and must fill, from the field rules (spec section 3:
 * IdDato, Campo, Obligatorio, Modificable). The server answers and enforces these settings; the
 * page draws them.
 */
import { type FieldRule, fieldRuleEffects } from './rules.js';

/** The field rules' IdDato of the security page's own form: a user editing their own record. */
export const OWN_RECORD_FORM = 'user-login';

/** The Data tab's fields, in the order the page shows them. */
export const OWN_RECORD_FIELDS = [
  'IdUsuario',
  'Nombre',
  'Apellido',
  'IdTipoDocumento',
  'Documento',
  'Correo',
  'Telefono',
  'IdConfiguracionLogeo',
  'Activo',
] as const;
export type OwnRecordField = (typeof OWN_RECORD_FIELDS)[number];

/**
 * The most a user may change of their own record, whatever the rules say: never their sign-in
 * name, their login setting (double authentication, password policy) or their active state. The
 * security page's rules (OWN_RECORD_FORM) may only narrow this, and name only these fields.
 */
export const SELF_EDITABLE: readonly OwnRecordField[] = [
  'Nombre',
  'Apellido',
  'IdTipoDocumento',
  'Documento',
  'Correo',
  'Telefono',
];

/** Shown only for a record that exists (spec section 2). */
export const EXISTING_ONLY: readonly OwnRecordField[] = ['IdConfiguracionLogeo', 'Activo'];

/** One field's settings as the page receives them. */
export interface FieldSetting {
  Campo: OwnRecordField;
  Obligatorio: 'S' | 'N';
  Modificable: 'S' | 'N';
}

/**
 * The Data tab's settings. A user who manages users (the users screen, writable) follows that
 * screen's rules (IdDato `user`) and may change every field but the sign-in name, the record's
 * key; anyone else edits only their own record, within SELF_EDITABLE, by the page's own rules.
 * `schemaRequired`: what the user schema itself requires, which no rule relaxes.
 */
export function ownRecordSettings(options: {
  manager: boolean;
  rules: readonly FieldRule[];
  schemaRequired: readonly string[];
}): FieldSetting[] {
  const ceiling: readonly string[] = options.manager
    ? OWN_RECORD_FIELDS.filter((f) => f !== 'IdUsuario')
    : SELF_EDITABLE;
  const effects = fieldRuleEffects(options.rules, ceiling);
  const required = new Set([...options.schemaRequired, ...effects.required]);
  return OWN_RECORD_FIELDS.map((Campo) => ({
    Campo,
    Obligatorio: required.has(Campo) ? 'S' : 'N',
    Modificable: ceiling.includes(Campo) && !effects.locked.includes(Campo) ? 'S' : 'N',
  }));
}
