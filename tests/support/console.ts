import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { APPLICATION_ID, APPLICATION_TYPE, SESSION } from '../../src/shared/constants.js';
import { api } from './processes.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * What the console keeps in the browser once `username` has signed in through the sign-in page
 * (the first profile, and its division named like `division` or its first): the tokens, the
 * profile, the divisions and the menu, made by the same calls the page makes (its sign-in
 * challenge solved as the widget does when the server asks for it). A context started with it is
 * signed in, as one that went through the page: the tests that are not about signing in begin
 * there instead of drawing the sign-in page and the dashboard each time.
 */
export async function consoleSession(
  base: string,
  username: string,
  options: { division?: string; password?: string; code?: () => Promise<string> } = {},
): Promise<StorageState> {
  const challenge = await api(base, 'GET', `/api/auth/challenge?usuario=${encodeURIComponent(username)}`);
  const tokenClient =
    challenge.enabled === false ? undefined : await (await import('./challenge.js')).answer(challenge);
  let login: Json = await api(base, 'POST', '/api/usuario/authenticate', undefined, {
    username,
    password: options.password ?? DEMO_PASSWORD,
    idAplicacion: APPLICATION_ID,
    idTipoAplicacion: APPLICATION_TYPE,
    tokenClient,
  });
  // A user whose setting sends a code gives it, as on the sign-in page's code step.
  if (login.dobleAutenticacion === 'S' && !login.accessToken && options.code)
    login = await api(base, 'POST', '/api/usuario/validatelogin', undefined, {
      username,
      codigo: await options.code(),
      idAplicacion: APPLICATION_ID,
      idTipoAplicacion: APPLICATION_TYPE,
    });
  if (!login.accessToken)
    throw new Error(`${username} is asked for more than a password: ${JSON.stringify(login)}`);
  const profile = login.perfil[0]?.IdPerfil;
  const divisions = (login.division as Json[]).filter((d) => d.IdPerfil === profile);
  const division = options.division
    ? divisions.find((d) => new RegExp(options.division as string).test(`${d.Cliente} — ${d.Division}`))
    : divisions[0];
  if (!division) throw new Error(`${username} has no division ${options.division ?? ''}`);
  const chosen: Json = await api(base, 'POST', '/api/usuario/refreshTokenbyperfil', login.accessToken, {
    idPerfil: profile,
    idDivision: division.IdDivision,
    tokenClient: '',
  });
  const query = new URLSearchParams({
    IdCliente: String(chosen.perfil.IdCliente),
    IdPerfil: String(chosen.perfil.IdPerfil),
    IdUsuario: login.username,
    IdAplicacion: APPLICATION_ID,
  });
  const menu = await api(base, 'GET', `/api/SeguridadMenu/obtenerMenu?${query}`, chosen.accessToken);
  const kept = {
    'acreditacion.auth': {
      accessToken: chosen.accessToken,
      refreshToken: chosen.refreshToken,
      username: login.username,
      fullName: login.fullName,
    },
    'acreditacion.profile': {
      current: chosen.perfil,
      menu,
      profiles: login.perfil,
      divisions: login.division,
      lockSeconds: Math.max(login.segundosInactividad, SESSION.minimumLockSeconds),
    },
  };
  return {
    cookies: [],
    origins: [
      {
        origin: new URL(base).origin,
        localStorage: Object.entries(kept).map(([name, value]) => ({ name, value: JSON.stringify(value) })),
      },
    ],
  };
}

/**
 * Signs `page` in as `username` without the sign-in page: the session consoleSession makes, kept
 * in the page's storage as the sign-in page keeps it, then the page opened at `at` (the dashboard,
 * where the sign-in page lands) or, with `at: null`, left on the server's health answer until the
 * test goes to a screen.
 */
export async function signInBySession(
  page: Page,
  base: string,
  username: string,
  options: { division?: string; at?: string | null; code?: () => Promise<string> } = {},
): Promise<void> {
  const state = await consoleSession(base, username, options);
  await page.goto(`${base}/api/health`);
  await page.evaluate((items) => {
    for (const { name, value } of items) window.localStorage.setItem(name, value);
  }, state.origins[0].localStorage);
  const at = options.at === undefined ? '/dashboard' : options.at;
  if (at === null) return;
  await page.goto(`${base}${at}`);
  await page.waitForURL((url) => url.pathname === at.split('?')[0]);
}

/**
 * A new page of its own browser context signed in as `username` (consoleSession), resting on the
 * server's health answer: of the console's origin, so that the session's tokens can be read, and
 * drawing nothing until the test goes to a screen.
 */
export async function sessionPage(
  browser: Browser,
  base: string,
  username: string,
  options: { context?: BrowserContextOptions; division?: string } = {},
): Promise<Page> {
  const storageState = await consoleSession(base, username, { division: options.division });
  const page = await (await browser.newContext({ ...options.context, storageState })).newPage();
  await page.goto(`${base}/api/health`);
  return page;
}

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
  // The fields wait for themselves; the challenge's answer is solved while the person types.
  await page.goto(`${base}/auth/login`);
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
 * A new page of its own browser context, signed in as `username` (consoleSession) and resting on
 * the server's health answer (sessionPage), whose console errors and warnings and uncaught errors
 * are kept in `problems` (a test ends by expecting none). `ignore`: console texts that are
 * expected (a refusal the test asks for).
 */
export async function signedInPage(
  browser: Browser,
  base: string,
  username: string,
  problems: string[],
  options: { context?: BrowserContextOptions; division?: string; ignore?: RegExp } = {},
): Promise<Page> {
  const storageState = await consoleSession(base, username, { division: options.division });
  const page = await watchedPage(browser, problems, {
    context: { acceptDownloads: true, ...options.context, storageState },
    ignore: options.ignore,
    label: username,
  });
  await page.goto(`${base}/api/health`);
  return page;
}
