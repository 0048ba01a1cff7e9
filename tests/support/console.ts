import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';

/** Signs in through the login page as a user would: user, password, then profile and division. */
export async function signInThroughConsole(
  page: Page,
  base: string,
  username: string,
  options: { password?: string; division?: string } = {},
): Promise<void> {
  await page.goto(`${base}/auth/login`, { waitUntil: 'networkidle' });
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole('button', { name: /^(Ingresar|Sign in)$/ }).click();
  await page.locator('#profile').waitFor();
  if (options.division) {
    await page.locator('#division').click();
    await page.getByRole('option', { name: new RegExp(options.division) }).click();
  }
  await page.getByRole('button', { name: /^(Entrar|Enter)$/ }).click();
  await page.waitForURL(/\/dashboard/);
}
