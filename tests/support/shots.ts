import type { Page } from 'playwright-core';

/**
 * The page as it looks once its finite transitions have ended, saved at `path` for a person to
 * look at: the screen, or with `fullPage` the whole page scrolled through.
 */
export async function screenshot(page: Page, path: string, fullPage = false): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await page.screenshot({ path, fullPage });
}

/**
 * What is wrong with how the page is drawn (`where` names it): wider than the screen, or a text
 * matching `rawKey` (a translation key shown instead of its text).
 */
export async function drawingProblems(page: Page, where: string, rawKey: RegExp): Promise<string[]> {
  const state = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    text: document.body.innerText,
  }));
  const screen = page.viewportSize()?.width ?? 0;
  const problems: string[] = [];
  if (state.width > screen) problems.push(`${where}: ${state.width}px wide on a ${screen}px screen`);
  if (rawKey.test(state.text)) problems.push(`${where}: shows ${rawKey.exec(state.text)?.[0]}`);
  return problems;
}
