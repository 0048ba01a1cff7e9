import { describe, expect, it } from 'vitest';
import { expiring, passes, validUntil } from '../../src/shared/induction.js';

describe('a passed induction’s validity', () => {
  it('runs the course’s months from the day passed, less a day', () => {
    expect(validUntil('2026-03-15', 12)).toBe('2027-03-14');
    expect(validUntil('2026-11-29', 24)).toBe('2028-11-28');
    expect(validUntil('2026-12-01', 1)).toBe('2026-12-31');
  });

  it('ends a day before the same day of a shorter month’s last day', () => {
    expect(validUntil('2026-01-31', 1)).toBe('2026-02-27');
    expect(validUntil('2028-01-31', 1)).toBe('2028-02-28');
    expect(validUntil('2026-08-31', 6)).toBe('2027-02-27');
  });
});

describe('a result', () => {
  it('passes only attended and at the passing score or above', () => {
    expect(passes(true, 70, 70)).toBe(true);
    expect(passes(true, 69, 70)).toBe(false);
    expect(passes(false, 100, 70)).toBe(false);
    expect(passes(true, null, 0)).toBe(false);
  });
});

describe('an induction expiring', () => {
  it('is still valid and ends within 30 days', () => {
    expect(expiring('2026-12-29', '2026-11-29')).toBe(true);
    expect(expiring('2026-12-30', '2026-11-29')).toBe(false);
    expect(expiring('2026-11-29', '2026-11-29')).toBe(true);
    expect(expiring('2026-11-28', '2026-11-29')).toBe(false);
  });
});
