import { addDays } from './dates.js';

/** The rights a person has over their data (ARCO, and Chile's portability). */
export type RightsKind = 'A' | 'R' | 'C' | 'O' | 'P';
/** The law a request is answered under: Peru's Ley 29733, Chile's Ley 21.719. */
export type PrivacyLaw = 'PE' | 'CL';

/**
 * The day a person's request must be answered by: Peru (Ley 29733's regulation), 20 working days
 * for access and 10 for rectification, cancellation and opposition, counted from the day after it
 * was received, Mondays to Fridays but the given holidays; Chile (Ley 21.719), 30 calendar days.
 */
export function responseDeadline(
  law: PrivacyLaw,
  kind: RightsKind,
  received: string,
  holidays: ReadonlySet<string> = new Set(),
): string {
  if (law === 'CL') return addDays(received, 30);
  let left = kind === 'A' ? 20 : 10;
  let day = received;
  while (left > 0) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !holidays.has(day)) left--;
  }
  return day;
}

/** Portability is a right of Chile's law only. */
export function rightUnderLaw(law: PrivacyLaw, kind: RightsKind): boolean {
  return kind !== 'P' || law === 'CL';
}

/**
 * When the authority must have been told of a security incident over personal data: Peru
 * (D.S. 016-2024-JUS), 48 hours from its detection; Chile (Ley 21.719), without undue delay, which
 * the product holds to 72 hours.
 */
export function authorityDeadline(law: PrivacyLaw, detected: string): string {
  return new Date(Date.parse(detected) + (law === 'PE' ? 48 : 72) * 3_600_000).toISOString();
}
