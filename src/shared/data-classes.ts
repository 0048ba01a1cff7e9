/**
 * The classes of personal data (Peru's Ley 29733, Chile's Ley 21.719): every field of a schema that
 * holds something about a person says which it is (`x-dataClass`, on the field or as the entity's
 * default). Health and criminal-record data are sensitive: a profile reads them only when its
 * data-protection setting allows that class (or the user's own setting does), and every such read
 * is recorded in the sensitive-data access log.
 */
export const DATA_CLASSES = [
  'identity',
  'contact',
  'health',
  'criminal',
  'biometric',
  'location',
  'financial',
  'none',
] as const;
export type DataClass = (typeof DATA_CLASSES)[number];

export const SENSITIVE_CLASSES = ['health', 'criminal'] as const;
export type SensitiveClass = (typeof SENSITIVE_CLASSES)[number];

export function isSensitive(dataClass: string | undefined): dataClass is SensitiveClass {
  return (SENSITIVE_CLASSES as readonly string[]).includes(dataClass ?? '');
}

/** The field of a profile and of a user that allows reading each sensitive class (S yes, N no). */
export const SENSITIVE_SETTINGS: Record<SensitiveClass, 'DatosSalud' | 'DatosAntecedentes'> = {
  health: 'DatosSalud',
  criminal: 'DatosAntecedentes',
};

/**
 * The sensitive classes a user reads with a profile: the user's own setting where it says S or N,
 * the profile's otherwise (the site's physician may read health data whatever the profile says,
 * and one user of a profile may be kept from them).
 */
export function allowedClasses(
  profile: Partial<Record<string, unknown>> | undefined,
  user: Partial<Record<string, unknown>> | undefined,
): SensitiveClass[] {
  return SENSITIVE_CLASSES.filter((dataClass) => {
    const field = SENSITIVE_SETTINGS[dataClass];
    const own = user?.[field];
    return own === 'S' || (own !== 'N' && profile?.[field] === 'S');
  });
}

/** A record's fields the caller could not read: sent empty, named here. */
export const MASKED_KEY = '$masked';

/** The fields the server sent empty in a record because the caller may not read them. */
export function maskedOf(record: Partial<Record<string, unknown>> | undefined): string[] {
  const masked = record?.[MASKED_KEY];
  return Array.isArray(masked) ? masked.map(String) : [];
}
