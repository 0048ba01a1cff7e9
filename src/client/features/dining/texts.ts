import { MEAL_REASONS, type MealReason, mealMessageKey, money } from '../../../shared/dining.js';
import type { Translate } from '../../i18n/translate.js';
import { session } from '../../session/store.js';

/** The currency symbol of a site's country (the clients' countries). */
const SYMBOLS: Record<string, string> = {
  PE: 'S/',
  CH: '$',
  AR: '$',
  CO: '$',
  BO: 'Bs',
  BRA: 'R$',
  US: 'US$',
};

/** Cents as the site's money with two decimals and thousands grouped: 1890 → "S/ 18.90". */
export function formatMoney(cents: number): string {
  const [whole, decimals] = money(cents).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOLS[session.siteCountry() ?? ''];
  return `${symbol ? `${symbol} ` : ''}${grouped}.${decimals}`;
}

/**
 * Why a meal was refused, in words, for a count of refusals of a sitting: its reason's message
 * with the details known here (the service, the capacity) and without those of one meal (the
 * time, the dates, the code read), which the last meals' rows carry.
 */
export function reasonText(
  translate: Translate,
  code: string,
  known: { service?: string; capacity?: number | null } = {},
): string {
  if (!MEAL_REASONS.includes(code as MealReason)) return code;
  const params: Record<string, string | number> = {};
  if (known.service) params.service = known.service;
  if (known.capacity != null) params.capacity = known.capacity;
  return translate(mealMessageKey(code as MealReason), params)
    .replace(/\s*\([^()]*%\{\w+\}[^()]*\)/g, '')
    .replace(/:\s*%\{\w+\}$/, '')
    .replace(/%\{\w+\}/g, '…')
    .trim();
}
