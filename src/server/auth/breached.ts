import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

/**
 * Passwords seen in breaches, from zxcvbn-ts's maintained list (about 50 000). Compared without
 * case, so "Password1" counts as the "password1" of the list.
 */
export function isCommonPassword(password: string): boolean {
  if (!common) {
    const list = (dictionary as Record<string, unknown>)['passwords-common'] as string[];
    common = new Set(list.map((p) => p.toLowerCase()));
  }
  return common.has(password.toLowerCase());
}
