import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { type PayrollCalendar, payrollPeriodOf } from '../../src/shared/payroll.js';

describe("a payroll's periods", () => {
  it.each([
    // Monthly, closing on the 20th: from the 21st of one month to the 20th of the next.
    [{ Periodicidad: 'M', DiaCierre: 20 }, '2026-11-27', '2026-11-21', '2026-12-20'],
    [{ Periodicidad: 'M', DiaCierre: 20 }, '2026-11-20', '2026-10-21', '2026-11-20'],
    [{ Periodicidad: 'M', DiaCierre: 20 }, '2027-01-05', '2026-12-21', '2027-01-20'],
    // Closing on the 31st: the month's last day in a shorter month.
    [{ Periodicidad: 'M', DiaCierre: 31 }, '2026-02-10', '2026-02-01', '2026-02-28'],
    [{ Periodicidad: 'M', DiaCierre: 31 }, '2028-02-29', '2028-02-01', '2028-02-29'],
    [{ Periodicidad: 'M', DiaCierre: 30 }, '2026-03-31', '2026-03-31', '2026-04-30'],
    // Fortnightly on the 15th: the first half and the rest of the month.
    [{ Periodicidad: 'Q', DiaCierre: 15 }, '2026-11-03', '2026-11-01', '2026-11-15'],
    [{ Periodicidad: 'Q', DiaCierre: 15 }, '2026-10-31', '2026-10-16', '2026-10-31'],
    [{ Periodicidad: 'Q', DiaCierre: 15 }, '2026-02-20', '2026-02-16', '2026-02-28'],
    // Fortnightly on the 10th: the 10th and the 25th.
    [{ Periodicidad: 'Q', DiaCierre: 10 }, '2026-11-27', '2026-11-26', '2026-12-10'],
    // Weekly, closing on Sunday (7): Monday to Sunday.
    [{ Periodicidad: 'S', DiaCierre: 7 }, '2026-11-27', '2026-11-23', '2026-11-29'],
    [{ Periodicidad: 'S', DiaCierre: 7 }, '2026-11-29', '2026-11-23', '2026-11-29'],
    // Weekly, closing on Wednesday (3).
    [{ Periodicidad: 'S', DiaCierre: 3 }, '2026-11-27', '2026-11-26', '2026-12-02'],
  ] as Array<[PayrollCalendar, string, string, string]>)(
    '%o holding %s: %s to %s',
    (calendar, date, desde, hasta) => {
      expect(payrollPeriodOf(calendar, date)).toEqual({ desde, hasta });
    },
  );

  it('tiles the calendar: every day in exactly one period, each period starting the day after the one before', () => {
    const calendars = fc.oneof(
      fc.record({ Periodicidad: fc.constant('M' as const), DiaCierre: fc.integer({ min: 1, max: 31 }) }),
      fc.record({ Periodicidad: fc.constant('Q' as const), DiaCierre: fc.integer({ min: 1, max: 31 }) }),
      fc.record({ Periodicidad: fc.constant('S' as const), DiaCierre: fc.integer({ min: 1, max: 7 }) }),
    );
    const days = fc.integer({ min: 0, max: 3650 }).map((n) => addDays('2024-01-01', n));
    fc.assert(
      fc.property(calendars, days, (calendar, date) => {
        const period = payrollPeriodOf(calendar, date);
        expect(period.desde <= date && date <= period.hasta).toBe(true);
        expect(payrollPeriodOf(calendar, period.desde)).toEqual(period);
        expect(payrollPeriodOf(calendar, period.hasta)).toEqual(period);
        expect(payrollPeriodOf(calendar, addDays(period.hasta, 1)).desde).toBe(addDays(period.hasta, 1));
        expect(payrollPeriodOf(calendar, addDays(period.desde, -1)).hasta).toBe(addDays(period.desde, -1));
      }),
    );
  });
});
