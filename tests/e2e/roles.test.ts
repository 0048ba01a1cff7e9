import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import es from '../../locales/es.json';
import type { ResourceMeta } from '../../src/shared/schema/types.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { mailTo, startMailServer } from '../support/mail.js';
import { kindSample } from '../support/screen-kinds.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/** The demo users, each with the address its codes go to (only SUPERVISOR is asked for one). */
const USERS = {
  ADMIN: 'admin@minandes.com.pe',
  SOLICITANTE: 'solicitante@sermipac.com.pe',
  AUTORIZADOR: 'autorizador@minandes.com.pe',
  SUPERVISOR: 'supervisor@minandes.com.pe',
} as const;
type User = keyof typeof USERS;

const DEVICES = {
  desktop: { viewport: { width: 1400, height: 900 } },
  phone: PHONE,
} as const;
type Device = keyof typeof DEVICES;

const PRODUCT = 'Acreditación';
/** Text that shows a translation key instead of its text (resources.x.name, enums.y.z, ...). */
const RAW_KEY = /\b(?:resources|enums|app|ra|validation|rules|locations)\.[a-zA-Z-]+\.[a-zA-Z]/;
const names = (resource: string): [string, string] => {
  const [one, many] = (es.resources as Record<string, { name: string }>)[resource].name
    .split('||||')
    .map((s) => s.trim());
  return [one, many ?? one];
};

/** Requests still in flight, so a view is judged once it has settled. */
class Network {
  private readonly inflight = new Set<Request>();
  private last = Date.now();
  constructor(page: Page) {
    const start = (r: Request) => {
      this.inflight.add(r);
      this.last = Date.now();
    };
    const end = (r: Request) => {
      this.inflight.delete(r);
      this.last = Date.now();
    };
    page.on('request', start);
    page.on('requestfinished', end);
    page.on('requestfailed', end);
  }
  /**
   * Until every request has ended and none started for `quietMs`. However long the server takes
   * on a loaded machine: a request that never ends fails the test at its own timeout.
   */
  async idle(quietMs = 100): Promise<void> {
    while (this.inflight.size || Date.now() - this.last < quietMs)
      await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Every screen as every demo user meets it, on a desktop and on a phone: for each screen of the
 * user's menu its list, a record's page (opened as the user would, from the list), and where the
 * user may write, the record's form and the form of a new one. On each: no error page, no error in
 * the browser console, no refused or failed request, a tab title that names the screen (and the
 * record), nothing wider than the phone, and no serious or critical accessibility finding (axe).
 *
 * The configuration screens are one generic code, so a user with many of them (the
 * administrator's 96) does not open each on both devices: each screen's list and record form are
 * opened on one of the two, and the few screens that between them draw every kind of field
 * (screen-kinds.ts) are opened whole (list, form, record page, new record's form) on both. Axe
 * judges each view of a screen once per device and kind of access, whichever walk gets there
 * first, and for a user with many screens only that sample.
 */
describe('every screen as every demo user', () => {
  let server: RunningServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startMailServer();
    server = await startRealServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  /** The views axe has judged: device, screen, view and the user's access to it. */
  const judged = new Set<string>();
  const firstJudgement = (key: string) => !judged.has(key) && Boolean(judged.add(key));

  async function walk(user: User, device: Device): Promise<string[]> {
    const context = await browser.newContext(DEVICES[device]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const network = new Network(page);
    const problems: string[] = [];
    const where = () => `${user} ${device} ${new URL(page.url()).pathname}`;
    page.on('pageerror', (error) => problems.push(`${where()}: page error ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${where()}: console ${message.type()} ${message.text().slice(0, 300)}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400)
        problems.push(`${where()}: ${response.status()} ${response.request().method()} ${response.url()}`);
    });

    /** Until no request is under way and the header shows no loading spinner. */
    const settled = async () => {
      for (;;) {
        await network.idle();
        const spinner = page.locator('.app-loader');
        if (!(await spinner.count())) return;
        // The spinner goes once its data have come, however long they take.
        await spinner.first().waitFor({ state: 'detached', timeout: 0 });
      }
    };

    const check = async (expected: { path: string; title: string[]; axe?: string; words?: boolean }) => {
      // The screen has drawn once its title names it (or an error page shows); then its data
      // settle: no request under way and the header's loading spinner gone.
      await page
        .waitForFunction(
          (parts) =>
            parts.every((part) => document.title.includes(part)) ||
            document.querySelector('[data-testid="error-page"], [class*="RaError-"]'),
          expected.title,
          // Looked at ten times a second: polled at every frame, the wait made the page draw them.
          { timeout: 10_000, polling: 100 },
        )
        .catch(() => undefined);
      await settled();
      const state = await page.evaluate(() => ({
        path: window.location.pathname,
        title: document.title,
        width: document.documentElement.scrollWidth,
        error: Boolean(document.querySelector('[data-testid="error-page"], [class*="RaError-"]')),
        table: Boolean(document.querySelector('table')),
      }));
      const at = `${user} ${device} ${expected.path}`;
      if (state.path !== expected.path) problems.push(`${at}: landed on ${state.path}`);
      if (state.error) problems.push(`${at}: shows an error page`);
      if (
        !state.title.endsWith(` · ${PRODUCT}`) ||
        expected.title.some((part) => !state.title.includes(part))
      )
        problems.push(`${at}: title "${state.title}" does not name ${expected.title.join(', ')}`);
      const screenWidth = DEVICES[device].viewport.width;
      if (state.width > screenWidth)
        problems.push(`${at}: ${state.width}px wide on a ${screenWidth}px screen`);
      if (expected.words) {
        // Headers, toolbar and breadcrumb in words, not translation keys (records may hold keys as data).
        const chrome = page.locator('thead, .RaTopToolbar-root, .list-empty, [data-testid="breadcrumb"]');
        const text = (await chrome.allInnerTexts()).join(' ');
        if (RAW_KEY.test(text)) problems.push(`${at}: shows a translation key: ${RAW_KEY.exec(text)?.[0]}`);
      }
      if (expected.axe && firstJudgement(`${device} ${expected.axe}`)) {
        for (const finding of await seriousAxeFindings(page)) problems.push(`${at}: ${finding}`);
      }
      return state;
    };

    // The sign-in page, before anything else.
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await check({ path: '/auth/login', title: [es.login.steps.credentials], axe: 'login' });
    const mailsTo = () => smtp.mails.filter((m) => m.to === USERS[user]).length;
    const before = mailsTo();
    await signInThroughConsole(page, server.url, user, {
      code: async () => {
        for (let i = 0; i < 100 && mailsTo() === before; i++) await page.waitForTimeout(100);
        return /código de verificación es (\d{4})/.exec(await mailTo(smtp.mails, USERS[user]))?.[1] ?? '';
      },
    });
    await network.idle();

    const api = async <T>(path: string): Promise<T> =>
      page.evaluate(async (url) => {
        const token = JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken;
        return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
      }, path);
    const meta = await api<{ resources: ResourceMeta[]; routes: string[] }>('/api/meta');
    const screens = meta.resources.filter((r) => meta.routes.includes(`/${r.name}`));
    if (!screens.length) problems.push(`${user} has no screens`);
    // A user with many screens: each on one device (alternately), and the sample on both.
    const sample = screens.length > 12 ? kindSample(screens) : new Set(screens.map((s) => s.name));
    const side = device === 'desktop' ? 0 : 1;
    const walked = screens.filter((s, i) => screens.length <= 12 || i % 2 === side || sample.has(s.name));
    const log = process.env.WALK_LOG
      ? (line: string) => console.log(`${Date.now() % 1_000_000} ${line}`)
      : () => {};

    /** The console's own navigation (as a menu link does), without reloading the page. */
    const go = async (path: string) => {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await settled();
    };

    await check({ path: '/dashboard', title: [es.app.menu.home], axe: `dashboard ${user}` });
    // The footer offers the manual of the user's role: the requester's, the authoriser's, the administrator's.
    const manual =
      es.manuals.guides[
        user === 'SOLICITANTE' ? 'requester' : user === 'ADMIN' ? 'administrator' : 'authoriser'
      ];
    const offered = (await page.locator('[data-testid="manual"]').textContent()) ?? '';
    if (offered.trim() !== manual)
      problems.push(`${user} ${device}: the footer offers "${offered}", not "${manual}"`);
    await go('/seguridad/usuarioLogin');
    await check({ path: '/seguridad/usuarioLogin', title: [es.shell.security], axe: 'security' });

    for (const screen of walked) {
      const [one, many] = names(screen.name);
      const judge = (view: string) =>
        sample.has(screen.name) ? `${screen.name} ${view} ${screen.access}` : undefined;
      log(`${user} ${device} ${screen.name}`);
      const list = `/${screen.name}`;
      await go(list);
      const shown = await check({ path: list, title: [many], axe: judge('list'), words: true });
      if (device === 'phone' && shown.table) problems.push(`${user} ${device} ${list}: a table on a phone`);
      // A record, opened from the list as the user would.
      // The row's own area: a column that is no reference (a link to another record, once its
      // label has loaded); on a phone, the record's card.
      const props = screen.schema.properties;
      const plain = screen.schema['x-list'].find((field) => !props[field]['x-ref']);
      const first = page
        .locator(
          device === 'phone' || !plain
            ? '[data-testid="record-link"], table tbody tr.RaDataTable-row td:not(.MuiTableCell-paddingCheckbox)'
            : `table tbody tr.RaDataTable-row td.column-${plain}`,
        )
        .first();
      if (!(await first.count())) {
        if (screen.access === 'write') {
          await go(`${list}/create`);
          await check({ path: `${list}/create`, title: [one], axe: judge('create') });
        }
        continue;
      }
      await first.click();
      await page.waitForURL((url) => url.pathname !== list);
      await settled();
      const opened = new URL(page.url()).pathname;
      const id = decodeURIComponent(opened.slice(list.length + 1).replace(/\/show$/, ''));
      const record = await api<Record<string, unknown>>(`/api/rest/${screen.name}/${encodeURIComponent(id)}`);
      // The record's label, a reference read as its record's own label (a name, not an id).
      const raw = (of: ResourceMeta, row: Record<string, unknown>) =>
        of.schema['x-label'].map((f) => row[f]).filter((v) => v !== null && v !== undefined && v !== '');
      const parts: string[] = [];
      for (const f of screen.schema['x-label']) {
        const value = record[f];
        if (value === null || value === undefined || value === '') continue;
        const ref = screen.schema.properties[f]['x-ref']?.resource;
        const target = meta.resources.find((r) => r.name === ref && r.access !== 'form');
        const row = target && (await api<Record<string, unknown>>(`/api/rest/${target.name}/${value}`));
        // A choice reads as its text.
        const named = screen.schema.properties[f]['x-enum'];
        const text = named && (es.enums as Record<string, Record<string, string>>)[named]?.[String(value)];
        parts.push(target && row ? raw(target, row).join(' ') : (text ?? String(value)));
      }
      const label = parts.join(' ');
      const recordTitle = [one, label];
      if (screen.access === 'write') {
        await check({ path: `${list}/${encodeURIComponent(id)}`, title: recordTitle, axe: judge('edit') });
        // The record's page and the new record's form draw the same fields as the form: the
        // sample's screens show them; the others' forms are enough.
        if (!sample.has(screen.name)) continue;
        await go(`${list}/${encodeURIComponent(id)}/show`);
        await check({
          path: `${list}/${encodeURIComponent(id)}/show`,
          title: recordTitle,
          axe: judge('show'),
        });
        await go(`${list}/create`);
        await check({ path: `${list}/create`, title: [one], axe: judge('create') });
      } else {
        await check({
          path: `${list}/${encodeURIComponent(id)}/show`,
          title: recordTitle,
          axe: judge('show'),
        });
      }
    }

    // The workflow screens of the user's menu (requests, approvals, bulk, demobilisation,
    // requirement update): each opened from the menu as the user would, named by its menu label.
    // Their tab names the kind of holder (workers, vehicles, visits) where the screen is for one.
    const menu = await api<{ result: Array<{ Ruta: string | null }> }>('/api/SeguridadMenu/obtenerMenu');
    const KINDS: Record<string, string> = {
      persona: es.accreditation.entities.T,
      vehiculo: es.accreditation.entities.V,
      visita: es.accreditation.entities.P,
    };
    for (const { Ruta: route } of menu.result) {
      if (!route || screens.some((screen) => `/${screen.name}` === route)) continue;
      log(`${user} ${device} ${route}`);
      await go(route);
      const kind = KINDS[route.split('/').pop() ?? ''];
      await check({ path: route, title: kind ? [kind] : [], axe: route });
    }
    await context.close();
    return problems;
  }

  /**
   * The walks run side by side, each in its own browser context: the administrator's two (96
   * screens each) apart, each other user's desktop and phone in turn (a user's codes are read
   * from one mailbox, one sign-in at a time).
   */
  const walks: Array<[string, Array<[User, Device]>]> = [
    ['ADMIN on a desktop', [['ADMIN', 'desktop']]],
    ['ADMIN on a phone', [['ADMIN', 'phone']]],
    ...(['SOLICITANTE', 'AUTORIZADOR', 'SUPERVISOR'] as const).map(
      (user): [string, Array<[User, Device]>] => [
        `${user} on a desktop and a phone`,
        [
          [user, 'desktop'],
          [user, 'phone'],
        ],
      ],
    ),
  ];
  for (const [name, runs] of walks) {
    it.concurrent(name, async ({ expect }) => {
      const problems: string[] = [];
      for (const [user, device] of runs) {
        const started = Date.now();
        problems.push(...(await walk(user, device)));
        console.log(`${user} ${device}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      expect(problems).toEqual([]);
    }, 900_000);
  }
});
