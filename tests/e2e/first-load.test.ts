import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAssets } from '../../scripts/bench-login.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/** What the sign-in page may download, compressed, before anybody has signed in. */
const LOGIN_JS_BUDGET = 200_000;

/**
 * The first visit, as a phone on a slow mine-site link meets it: the sign-in page comes alone
 * and compressed, at once, in the language the address asked for.
 */
describe('first load in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    return page;
  }

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the hashed assets precompressed, cached for a year, and the page itself uncached', async () => {
    const html = await fetch(`${server.url}/auth/login`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const page = await html.text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(page)?.[1] as string;
    expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    }
    const plain = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it(`loads the sign-in page with less than ${LOGIN_JS_BUDGET / 1000} kB of compressed JavaScript, none of the console`, async () => {
    const page = await newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').waitFor();
    const transferred = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
    );
    expect(transferred).toBeGreaterThan(50_000);
    expect(transferred).toBeLessThan(LOGIN_JS_BUDGET);
    expect(scripts.some((path) => /\/console-/.test(path))).toBe(false);
    // bench:login names the same files the browser fetched.
    const measured = loginAssets('dist/client').map((asset) => `/${asset.file}`);
    expect([...new Set(scripts)].sort()).toEqual(measured.filter((f) => f.endsWith('.js')).sort());
    await page.context().close();
  });

  it('shows the sign-in form at once for an unknown address, with no empty console before it', async () => {
    const page = await newPage();
    await page.addInitScript(() => {
      // Anything of the console's shell drawn before the sign-in form is remembered.
      new MutationObserver(() => {
        if (document.querySelector('.RaLayout-root, .RaSidebar-root, header'))
          (window as unknown as { shellSeen: boolean }).shellSeen = true;
      }).observe(document, { childList: true, subtree: true });
    });
    // At once: the sign-in page's own scripts and nothing of the console are fetched before the
    // form shows (not a wall-clock bound, which a busy machine breaks whatever the page does).
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/no-existe/ni-esto`, { waitUntil: 'commit' });
    await page.locator('#username').waitFor();
    const before = [...new Set(scripts)];
    const login = loginAssets('dist/client').map((asset) => `/${asset.file}`);
    expect(before.filter((path) => !login.includes(path))).toEqual([]);
    expect(before.some((path) => /\/console-/.test(path))).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await page.evaluate(() => (window as unknown as { shellSeen?: boolean }).shellSeen)).toBeFalsy();
    expect(await page.title()).toBe('Iniciar sesión · Acreditación');
    await page.context().close();
  });

  it('keeps ?lang=en through the sign-in: the console opens in English', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/?lang=en`, { waitUntil: 'networkidle' });
    await page.waitForURL(/\/auth\/login$/);
    expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1);
    await page.locator('#username').fill('ADMIN');
    await page.locator('#password').fill('Acredita#2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => page.getByRole('button', { name: 'System', exact: true }).count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    // Signing out and in again keeps the language too.
    await page.goto(`${server.url}/logout`);
    await page.waitForURL(/\/auth\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInThroughConsole(page, server.url, 'ADMIN');
    await expect.poll(() => page.getByRole('button', { name: 'System', exact: true }).count()).toBe(1);
    await page.context().close();
  });

  it('logged no errors or warnings in the browser console', () => {
    expect(problems).toEqual([]);
  });
});
