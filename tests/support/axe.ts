/**
 * Accessibility checks with axe-core, run in the page. The axe source (about 550 kB) is put into
 * the page once and stays while the console moves between screens without reloading; running it
 * is then a fraction of a second (putting it in again for every check took most of the time).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  nodes: Array<{ target: string[] }>;
}

/** The axe violations of the page (or only the rules given), as axe-core's `run` answers them. */
export async function axeViolations(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  // Through the debugging protocol, so the console's content security policy does not stop it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const options = only ? { runOnly: { type: 'rule', values: only } } : {};
    const result = (await axe.run(document, { ...options, resultTypes: ['violations'] })) as {
      violations: AxeViolation[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  }, rules);
}

/** The serious and critical findings, one line each, naming up to three of their elements. */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `axe ${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}
