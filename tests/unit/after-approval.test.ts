import { describe, expect, it } from 'vitest';
import { escalationTargets } from '../../src/server/features/accreditation/corrections.js';
import { NO_LINES } from '../../src/server/features/accreditation/engine/engine.js';
import { thresholdOf } from '../../src/server/features/accreditation/expiry.js';
import { requestMachine } from '../../workflows/request.machine.js';

const at = (status: 'I' | 'P' | 'O' | 'R' | 'A') =>
  requestMachine.resolveState({ value: status, context: NO_LINES });

describe('a demobilisation on the request machine (no lines)', () => {
  it('is sent on creation, and approved without lines to wait for', () => {
    expect(at('I').can({ type: 'SEND' })).toBe(true);
    expect(at('P').can({ type: 'APPROVE' })).toBe(true);
  });
  it('is observed or rejected only with a reason, and never changed once answered', () => {
    expect(at('P').can({ type: 'OBSERVE' })).toBe(false);
    expect(at('P').can({ type: 'OBSERVE', reason: 'ADJUNTE LA CARTA' })).toBe(true);
    expect(at('P').can({ type: 'REJECT', reason: ' ' })).toBe(false);
    expect(at('P').can({ type: 'REJECT', reason: 'SIGUE EN OBRA' })).toBe(true);
    for (const status of ['R', 'A'] as const) {
      expect(at(status).can({ type: 'APPROVE' })).toBe(false);
      expect(at(status).can({ type: 'DELETE' })).toBe(false);
    }
    expect(at('P').can({ type: 'DELETE' })).toBe(false);
  });
});

describe('expiry thresholds', () => {
  it('notices within the type’s days, then at expiry; nothing before or with no days', () => {
    expect(thresholdOf('2026-03-31', 10, '2026-03-20')).toBeUndefined();
    expect(thresholdOf('2026-03-31', 10, '2026-03-21')).toBe(10);
    expect(thresholdOf('2026-03-31', 10, '2026-03-31')).toBe(10);
    expect(thresholdOf('2026-03-31', 10, '2026-04-01')).toBe(0);
    expect(thresholdOf('2026-03-31', 0, '2026-03-30')).toBeUndefined();
    expect(thresholdOf('2026-03-31', null, '2026-04-05')).toBe(0);
  });
  it('after downtime past the expiry, only the expired notice is due', () => {
    expect(thresholdOf('2026-03-31', 30, '2026-05-01')).toBe(0);
  });
});

describe('whom an overdue correction escalates to', () => {
  // DOMAIN: the contract administrator first, then safety, then occupational health.
  const HEALTH = 3;
  const SAFETY = 4;
  const approvers = [
    { IdUsuario: 'ADMCONTRATO', Orden: 1, IdTipoRequisito: null },
    { IdUsuario: 'SEGURIDAD', Orden: 2, IdTipoRequisito: SAFETY },
    { IdUsuario: 'SALUD', Orden: 3, IdTipoRequisito: HEALTH },
    { IdUsuario: 'SALUD2', Orden: 3, IdTipoRequisito: HEALTH },
  ];
  it('tells the next order that covers the line’s requirement type', () => {
    expect(escalationTargets(approvers, SAFETY)).toEqual(['SEGURIDAD']);
    expect(escalationTargets(approvers, HEALTH)).toEqual(['SALUD', 'SALUD2']);
  });
  it('tells the line’s own order when no later one covers it, and nobody when none covers it', () => {
    expect(escalationTargets(approvers, 99)).toEqual(['ADMCONTRATO']);
    expect(escalationTargets([approvers[2]], HEALTH)).toEqual(['SALUD']);
    expect(escalationTargets([approvers[1]], HEALTH)).toEqual([]);
  });
});
