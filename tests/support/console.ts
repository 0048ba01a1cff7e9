import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';

/**
 * Signs in through the login page as a user would: user, password, the e-mailed code when the
 * user's setting asks for one (`code` reads it), then profile and division.
 */
export async function signInThroughConsole(
  page: Page,
  base: string,
  username: string,
  options: { password?: string; division?: string; code?: () => Promise<string> } = {},
): Promise<void> {
  await page.goto(`${base}/auth/login`, { waitUntil: 'networkidle' });
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole('button', { name: /^(Ingresar|Sign in)$/ }).click();
  await page.locator('#profile, #code').first().waitFor();
  if (await page.locator('#code').count()) {
    if (!options.code) throw new Error(`${username} is asked for a verification code`);
    await page.locator('#code').fill(await options.code());
    await page.getByRole('button', { name: /^(Verificar|Verify)$/ }).click();
    await page.locator('#profile').waitFor();
  }
  if (options.division) {
    await page.locator('#division').click();
    await page.getByRole('option', { name: new RegExp(options.division) }).click();
  }
  await page.getByRole('button', { name: /^(Entrar|Enter)$/ }).click();
  await page.waitForURL(/\/dashboard/);
}

/**
 * A new page of its own browser context whose uncaught errors and console errors (and warnings,
 * unless `warnings` is false) are kept in `problems`, each after `label` (a test ends by expecting
 * none). `ignore`: console texts that are expected (a refusal the test asks for).
 */
export async function watchedPage(
  browser: Browser,
  problems: string[],
  options: {
    context?: BrowserContextOptions;
    ignore?: RegExp;
    label?: string;
    warnings?: boolean;
    timeout?: number;
  } = {},
): Promise<Page> {
  const page = await (await browser.newContext(options.context)).newPage();
  page.setDefaultTimeout(options.timeout ?? 20_000);
  const prefix = options.label ? `${options.label} ` : '';
  const kinds = options.warnings === false ? ['error'] : ['error', 'warning'];
  page.on('console', (message) => {
    if (options.ignore?.test(message.text())) return;
    if (kinds.includes(message.type())) problems.push(`${prefix}${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${prefix}pageerror: ${error.message}`));
  return page;
}

/**
 * A new page of its own browser context, signed in through the console as `username`, whose
 * console errors and warnings and uncaught errors are kept in `problems` (a test ends by expecting
 * none). `ignore`: console texts that are expected (a refusal the test asks for).
 */
export async function signedInPage(
  browser: Browser,
  base: string,
  username: string,
  problems: string[],
  options: { context?: BrowserContextOptions; division?: string; ignore?: RegExp } = {},
): Promise<Page> {
  const page = await watchedPage(browser, problems, {
    context: { acceptDownloads: true, ...options.context },
    ignore: options.ignore,
    label: username,
  });
  await signInThroughConsole(page, base, username, { division: options.division });
  return page;
}
