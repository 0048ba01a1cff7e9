import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { Receiver, selfSigned, signedBy } from '../support/webhooks.js';

/**
 * The administrator's webhook screens on a real server that delivers in the background: an
 * endpoint made on its form, its secret shown once, an accreditation event received signed by the
 * receiving system, the delivery listed, and a resend received again.
 */
describe('webhooks in a real browser', () => {
  const tls = selfSigned();
  const receiver = new Receiver(tls);
  const folder = mkdtempSync(join(tmpdir(), 'acr-webhook-ca-'));
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    writeFileSync(join(folder, 'ca.pem'), tls.cert);
    [server, browser] = await Promise.all([
      startRealServer({ WEBHOOK_CA_FILE: join(folder, 'ca.pem'), JOB_POLL_SECONDS: '1' }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes an endpoint, shows its secret once, and its events arrive signed; a delivery is resent', async () => {
    await signInBySession(page, server.url, 'ADMIN');
    await page.goto(`${server.url}/webhook-endpoint/create`);
    await page.locator('#root_Descripcion').fill('Nómina de prueba');
    await page.locator('#root_Url').fill('http://nomina.example.com');
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect
      .poll(() => page.locator('body').innerText())
      .toContain('Ingrese una dirección HTTPS completa');
    await page.locator('#root_Url').fill(receiver.url());
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    // Saved, back on the list: its row opens the record.
    await page.waitForURL(/\/webhook-endpoint$/);
    await page.locator('main tbody tr', { hasText: 'NÓMINA DE PRUEBA' }).click();
    await page.waitForURL(/\/webhook-endpoint\/\d+(\/show)?$/);
    const id = Number(/webhook-endpoint\/(\d+)/.exec(page.url())?.[1]);

    await page.locator('.webhook-secret').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Generar' }).click();
    const secret = await dialog.getByRole('textbox', { name: 'Secreto' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => dialog.innerText()).toContain('no se volverá a mostrar');
    await dialog.getByRole('button', { name: 'Cerrar' }).click();

    // An accreditation ends: accreditation writes its event to the outbox.
    const db = new Sqlite(`${server.dataDir}/acreditacion.db`);
    const accreditation = db
      .prepare(
        'select IdAcreditacion, IdCliente from accreditation_accreditation order by IdAcreditacion limit 1',
      )
      .get() as { IdAcreditacion: number; IdCliente: number };
    const at = new Date().toISOString();
    db.prepare(
      `insert into accreditation_accreditation_event
        (IdCliente, IdAcreditacion, Tipo, Datos, Fecha, IdUsuarioCreacion, FechaCreacion)
       values (?, ?, 'ended', '{}', ?, 'PRUEBA', ?)`,
    ).run(accreditation.IdCliente, accreditation.IdAcreditacion, at, at);
    db.close();

    // The receiving system gets it, signed with the secret the screen showed.
    await expect.poll(() => receiver.at('/hooks').length, { timeout: 15_000 }).toBe(1);
    const [first] = receiver.at('/hooks');
    expect(first.json).toMatchObject({ type: 'accreditation.ended' });
    expect(first.json.accreditation.IdAcreditacion).toBe(accreditation.IdAcreditacion);
    expect(signedBy(secret, first)).toBe(true);

    // The delivery, listed as delivered, sent again from its screen.
    await page.goto(
      `${server.url}/webhook-delivery?filter=${encodeURIComponent(JSON.stringify({ IdDestino: id }))}`,
    );
    await expect.poll(() => page.locator('main').innerText()).toContain('Entregada');
    await page.locator('main tbody tr').first().click();
    await page.locator('.webhook-resend').click();
    await expect.poll(() => page.locator('body').innerText()).toContain('La entrega se reenviará');
    await expect.poll(() => receiver.at('/hooks').length, { timeout: 15_000 }).toBe(2);
    expect(receiver.at('/hooks')[1].json.id).toBe(first.json.id);
    expect(problems).toEqual([]);
  });
});
