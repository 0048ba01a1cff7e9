import { describe, expect, it } from 'vitest';
import { GATE_DECISION_BUDGET_MS, readConfig } from '../../src/server/config.js';

describe('the server configuration', () => {
  it('gives a gate 200 ms to decide unless GATE_DECISION_BUDGET_MS says otherwise', () => {
    expect(readConfig({}).gateDecisionBudgetMs).toBe(GATE_DECISION_BUDGET_MS);
    expect(GATE_DECISION_BUDGET_MS).toBe(200);
    expect(readConfig({ GATE_DECISION_BUDGET_MS: '500' }).gateDecisionBudgetMs).toBe(500);
  });

  it('refuses a budget that is not whole milliseconds from 50 to 60 000', () => {
    for (const bad of ['0', '49', '60001', '1.5', 'fast'])
      expect(() => readConfig({ GATE_DECISION_BUDGET_MS: bad })).toThrow(/GATE_DECISION_BUDGET_MS/);
  });

  it('refuses a port that is not one', () => {
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(readConfig({ PORT: '9000' }).port).toBe(9000);
  });
});
