import { describe, expect, it } from 'vitest';
import { responseDeadline, rightUnderLaw } from '../../src/shared/privacy-terms.js';

describe("the legal deadlines of a person's rights request", () => {
  it('gives Peru 20 working days for access and 10 for the other rights, from the day after it came', () => {
    // Monday 2 November 2026: four weeks of Mondays to Fridays.
    expect(responseDeadline('PE', 'A', '2026-11-02')).toBe('2026-11-30');
    expect(responseDeadline('PE', 'R', '2026-11-02')).toBe('2026-11-16');
    // Received on a Friday: the weekend does not count.
    expect(responseDeadline('PE', 'C', '2026-11-06')).toBe('2026-11-20');
  });

  it("skips the client's holidays in Peru's working days", () => {
    // 8 December (Immaculate Conception) falls within ten working days of 1 December 2026.
    expect(responseDeadline('PE', 'O', '2026-12-01')).toBe('2026-12-15');
    expect(responseDeadline('PE', 'O', '2026-12-01', new Set(['2026-12-08']))).toBe('2026-12-16');
  });

  it('gives Chile 30 calendar days, and portability only under its law', () => {
    expect(responseDeadline('CL', 'A', '2026-12-15')).toBe('2027-01-14');
    expect(responseDeadline('CL', 'P', '2026-12-15', new Set(['2026-12-25']))).toBe('2027-01-14');
    expect(rightUnderLaw('CL', 'P')).toBe(true);
    expect(rightUnderLaw('PE', 'P')).toBe(false);
    expect(rightUnderLaw('PE', 'A')).toBe(true);
  });
});
