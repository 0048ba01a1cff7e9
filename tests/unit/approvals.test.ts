import { describe, expect, it } from 'vitest';
import { wholeDecision } from '../../src/shared/approvals.js';

const HEALTH = 3;
const SAFETY = 2;
const everyType = (Orden: number) => ({ Orden, IdTipoRequisito: null });
const ofType = (Orden: number, IdTipoRequisito: number) => ({ Orden, IdTipoRequisito });

describe('who decides a whole request', () => {
  const lines = [
    { type: SAFETY, status: 'P' },
    { type: HEALTH, status: 'P' },
    { type: SAFETY, status: null },
  ];
  const all = [everyType(1), ofType(2, SAFETY), ofType(3, HEALTH)];

  it('is an approver to whom every flagged line belongs', () => {
    expect(wholeDecision([everyType(1)], all, lines)).toBe('allowed');
    expect(wholeDecision([ofType(3, HEALTH)], all, lines)).toBe('notYours');
    // Two rows of one approver together cover every line.
    expect(wholeDecision([ofType(1, SAFETY), ofType(1, HEALTH)], all, lines)).toBe('allowed');
    // A line not flagged for approval belongs to nobody.
    const typed = [ofType(2, SAFETY), ofType(3, HEALTH)];
    const health = [
      { type: HEALTH, status: 'P' },
      { type: SAFETY, status: null },
    ];
    expect(wholeDecision([ofType(3, HEALTH)], typed, health)).toBe('allowed');
    // The same, with an approver of every type at order 1 whose turn comes first.
    expect(wholeDecision([ofType(3, HEALTH)], all, health)).toBe('notYourTurn');
    expect(wholeDecision([], all, lines)).toBe('notYours');
  });

  it('in their turn: not while an earlier order’s line is open', () => {
    const later = [ofType(1, SAFETY), everyType(2)];
    expect(wholeDecision([everyType(2)], later, lines)).toBe('notYourTurn');
    expect(
      wholeDecision([everyType(2)], later, [
        { type: SAFETY, status: 'A' },
        { type: HEALTH, status: 'P' },
      ]),
    ).toBe('allowed');
    expect(wholeDecision([everyType(2)], later, [{ type: SAFETY, status: 'O' }])).toBe('notYourTurn');
  });

  it('a request without lines is decided by an approver of every requirement type', () => {
    expect(wholeDecision([everyType(1)], all, [])).toBe('allowed');
    expect(wholeDecision([everyType(4)], all, [])).toBe('allowed');
    expect(wholeDecision([ofType(3, HEALTH), ofType(3, SAFETY)], all, [])).toBe('notYours');
  });
});
