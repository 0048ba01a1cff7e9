import { useTranslate } from 'react-admin';
import { OWN_RECORD_FORM, SELF_EDITABLE } from '../../shared/own-record.js';
import type { PropertySchema, ResourceMeta } from '../../shared/schema/types.js';
import { useMeta } from '../providers/meta.js';

/**
 * Forms that take field rules without being a screen of their own: the security page's record of
 * the signed-in user (its fields are the users screen's, labelled as there).
 */
export const PAGE_FORMS: Record<string, { resource: string; fields: readonly string[]; labelKey: string }> = {
  [OWN_RECORD_FORM]: { resource: 'user', fields: SELF_EDITABLE, labelKey: 'security.ownRecordForm' },
};

/**
 * The property of a schema that names a screen (x-widget resource): the field rules' IdDato, the
 * audit's Recurso. Its sibling with x-widget field names one of that screen's fields.
 */
export function screenProperty(properties: Record<string, PropertySchema>): string | undefined {
  return Object.keys(properties).find((field) => properties[field]['x-widget'] === 'resource');
}

/** The console's screens as choices, by their names in the user's language, sorted. */
export function useScreenChoices(
  options: { only?: (resource: ResourceMeta) => boolean; withKey?: boolean } = {},
): Array<{ id: string; name: string }> {
  const translate = useTranslate();
  const { resources } = useMeta();
  return resources
    .filter(options.only ?? (() => true))
    .map((r) => {
      const name = translate(`resources.${r.name}.name`, { smart_count: 1 });
      return { id: r.name, name: options.withKey ? `${name} (${r.name})` : name };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
