/** The product's modules, in the order the side menu shows them (spec section 1 and 2). */
export const MODULES = [
  'system',
  'security',
  'administration',
  'access',
  'attendance',
  'identification',
  'dining',
  'hotel',
  'accreditation',
  'induction',
  'transport',
] as const;

export type ModuleKey = (typeof MODULES)[number];

export function isModuleKey(value: string): value is ModuleKey {
  return (MODULES as readonly string[]).includes(value);
}
