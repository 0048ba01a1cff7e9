import { amountText, MEAL_REASONS, type MealReason, mealMessageKey } from '../../../shared/dining.js';
import type { Translate } from '../../i18n/translate.js';
import type { Currency } from './api.js';

/** Cents in the client's currency, with its symbol and decimals: 1890 in soles → "S/ 18.90". */
export function formatMoney(cents: number, currency?: Currency | null): string {
  return amountText(cents, currency ?? undefined);
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
