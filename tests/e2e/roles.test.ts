import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import es from '../../locales/es.json';
import type { ResourceMeta } from '../../src/shared/schema/types.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { mailTo, startMailServer } from '../support/mail.js';
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
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
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

/** The kinds of field a screen draws: its widgets, formats, selects, references and its own flags. */
function fieldKinds(resource: ResourceMeta): Set<string> {
  const kinds = new Set<string>([`access:${resource.access}`]);
  if (resource.schema['x-readOnly']) kinds.add('readOnly');
  if (resource.schema['x-sections']) kinds.add('sections');
  for (const prop of Object.values(resource.schema.properties)) {
    if (prop['x-widget']) kinds.add(`widget:${prop['x-widget']}`);
    if (prop.format) kinds.add(`format:${prop.format}`);
    if (prop.enum) kinds.add('enum');
    if (prop['x-ref']) kinds.add(prop.type === 'array' ? 'refs' : prop['x-ref'].filter ? 'cascade' : 'ref');
    if (prop['x-computed']) kinds.add('computed');
  }
  return kinds;
}

/**
 * Screens whose views axe checks: all of them for a profile with a few, else a set that between
 * them draw every kind of field (the screens are one generic code; what differs is the fields).
 * An accessibility check takes a second or two; the administrator's 96 screens would take many.
 */
function accessibilitySample(screens: ResourceMeta[]): Set<string> {
  if (screens.length <= 12) return new Set(screens.map((s) => s.name));
  const missing = new Set(screens.flatMap((s) => [...fieldKinds(s)]));
  const chosen = new Set<string>();
  while (missing.size) {
    const best = screens
      .map((s) => ({ name: s.name, gain: [...fieldKinds(s)].filter((k) => missing.has(k)).length }))
      .sort((a, b) => b.gain - a.gain)[0];
    chosen.add(best.name);
    for (const kind of fieldKinds(screens.find((s) => s.name === best.name) as ResourceMeta))
      missing.delete(kind);
  }
  return chosen;
}

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
  async idle(quietMs = 100, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.inflight.size && Date.now() - this.last >= quietMs) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`requests still running: ${[...this.inflight].map((r) => r.url()).join(', ')}`);
  }
}

/**
 * Every screen as every demo user meets it, on a desktop and on a phone: for each screen of the
 * user's menu its list, a record's page (opened as the user would, from the list), and where the
 * user may write, the record's form and the form of a new one. On each: no error page, no error in
 * the browser console, no refused or failed request, a tab title that names the screen (and the
 * record), nothing wider than the phone, and no serious or critical accessibility finding (axe).
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

    const check = async (expected: { path: string; title: string[]; axe?: boolean; words?: boolean }) => {
      // The screen has drawn once its title names it (or an error page shows); then its data settle.
      await page
        .waitForFunction(
          (parts) =>
            parts.every((part) => document.title.includes(part)) ||
            document.querySelector('[data-testid="error-page"], [class*="RaError-"]'),
          expected.title,
          { timeout: 10_000 },
        )
        .catch(() => undefined);
      await network.idle();
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
      if (expected.axe) {
        const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
        for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
          problems.push(
            `${at}: axe ${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
          );
      }
      return state;
    };

    // The sign-in page, before anything else.
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await check({ path: '/auth/login', title: [es.login.steps.credentials], axe: true });
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
    const checked = accessibilitySample(screens);
    const log = process.env.WALK_LOG
      ? (line: string) => console.log(`${Date.now() % 1_000_000} ${line}`)
      : () => {};

    /** The console's own navigation (as a menu link does), without reloading the page. */
    const go = async (path: string) => {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await network.idle();
    };

    await check({ path: '/dashboard', title: [es.app.menu.home], axe: true });
    await go('/seguridad/usuarioLogin');
    await check({ path: '/seguridad/usuarioLogin', title: [es.shell.security], axe: true });

    for (const screen of screens) {
      const [one, many] = names(screen.name);
      const axe = checked.has(screen.name);
      log(`${user} ${device} ${screen.name}`);
      const list = `/${screen.name}`;
      await go(list);
      const shown = await check({ path: list, title: [many], axe, words: true });
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
          await check({ path: `${list}/create`, title: [one], axe });
        }
        continue;
      }
      await first.click();
      await page.waitForURL((url) => url.pathname !== list);
      await network.idle();
      const opened = new URL(page.url()).pathname;
      const id = decodeURIComponent(opened.slice(list.length + 1).replace(/\/show$/, ''));
      const record = await api<Record<string, unknown>>(`/api/rest/${screen.name}/${encodeURIComponent(id)}`);
      const label = screen.schema['x-label']
        .map((f) => record[f])
        .filter((v) => v !== null && v !== undefined && v !== '')
        .join(' ');
      const recordTitle = [one, label];
      if (screen.access === 'write') {
        await check({ path: `${list}/${encodeURIComponent(id)}`, title: recordTitle, axe });
        await go(`${list}/${encodeURIComponent(id)}/show`);
        await check({ path: `${list}/${encodeURIComponent(id)}/show`, title: recordTitle, axe });
        await go(`${list}/create`);
        await check({ path: `${list}/create`, title: [one], axe });
      } else {
        await check({ path: `${list}/${encodeURIComponent(id)}/show`, title: recordTitle, axe });
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
      await check({ path: route, title: kind ? [kind] : [], axe: true });
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
