import { describe, expect, it } from 'vitest';
import { requestDateProblems } from '../../src/shared/request-dates.js';

const today = '2026-11-26';
const contract = { FechaInicio: '2026-01-01', FechaFin: '2027-12-31' };
const keys = (problems: Record<string, { messageKey: string }>) =>
  Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, p.messageKey.split('.').pop()]));

describe('a request’s dates', () => {
  it('hold when they start today or later, within the contract', () => {
    expect(
      requestDateProblems(
        { FechaInicio: today, FechaFin: '2027-01-31', FechaNacimiento: '1990-05-14' },
        { today, contract },
      ),
    ).toEqual({});
  });

  it('are refused where they are wrong, with dates written dd/MM/yyyy', () => {
    const problems = requestDateProblems(
      { FechaInicio: '2026-11-25', FechaFin: '2028-01-01' },
      { today, contract },
    );
    expect(keys(problems)).toEqual({ FechaInicio: 'startBeforeToday', FechaFin: 'outsideContract' });
    expect(problems.FechaInicio.params).toEqual({ today: '26/11/2026' });
    expect(problems.FechaFin.params).toEqual({ start: '01/01/2026', end: '31/12/2027' });
    expect(
      keys(requestDateProblems({ FechaInicio: '2026-12-10', FechaFin: '2026-12-01' }, { today, contract })),
    ).toEqual({
      FechaFin: 'endBeforeStart',
    });
    expect(
      keys(
        requestDateProblems(
          { FechaInicio: '2026-12-01', FechaFin: '2026-12-31' },
          { today, contract, longestVisit: 15 },
        ),
      ),
    ).toEqual({ FechaFin: 'visitTooLong' });
  });

  it('want a birth date in the past and the legal working age', () => {
    expect(keys(requestDateProblems({ FechaNacimiento: today }, { today }))).toEqual({
      FechaNacimiento: 'birthNotPast',
    });
    expect(keys(requestDateProblems({ FechaNacimiento: '2008-11-27' }, { today }))).toEqual({
      FechaNacimiento: 'underWorkingAge',
    });
    expect(requestDateProblems({ FechaNacimiento: '2008-11-26' }, { today })).toEqual({});
  });
});
