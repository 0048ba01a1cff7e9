/**
 * Hostile files sent to the bulk upload of a server process (the built product): a workbook whose
 * rows carry 200 extra cells each, all pointing at one long shared string; one whose template
 * columns hold that string; a zip whose many names point at one large entry. Each is refused or
 * read within the upload's budget: the server stays up, and its peak resident memory (VmHWM,
 * the kernel's high-water mark of the process) grows by less than PEAK_GROWTH_MB.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { pdf } from '../support/accreditation.js';
import { excelDate, openTemplate } from '../support/bulk.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';
import { widenedWorkbook, zipOf } from '../support/hostile-files.js';
import { demoBulkTemplate, requester } from '../support/processes.js';
import { killServer, type ServerProcess, spawnServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const ROWS = 10_000;
/** What one hostile upload may add to the server's peak memory. */
const PEAK_GROWTH_MB = 256;

/** The process's peak resident memory so far, in MB. */
const peakOf = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

describe.each(DIALECTS)('hostile uploads on %s', (dialect) => {
  let db: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await db?.drop();
  });

  it('reads a workbook of 10 000 rows of extra cells and a zip of aliases within the budget, and stays up', async () => {
    db = await createTestDatabase(dialect, 'demo');
    server = await spawnServer(
      { DATA_DIR: db.location.dataDir, DEMO_DATA: 'off', WEB_CONCURRENCY: '1' },
      db.location.databaseUrl,
    );
    const { url, child } = server;
    const pid = child.pid as number;
    const token = await requester(url);
    const { contract, profile, template } = await demoBulkTemplate(url, token);
    const tpl = await openTemplate(template.fileBase64);
    const send = async (file: Buffer, attachments?: Buffer) => {
      const form = new FormData();
      form.set('IdContrato', String(contract));
      form.set('IdPerfilAcreditacion', String(profile));
      form.set('file', new Blob([new Uint8Array(file)]), 'carga.xlsx');
      if (attachments) form.set('adjuntos', new Blob([new Uint8Array(attachments)]), 'adjuntos.zip');
      const res = await fetch(`${url}/api/acreditacionsolicitud/cargamasiva`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const alive = async () => (await fetch(`${url}/api/health`)).status;
    const before = peakOf(pid);

    // 10 000 rows, each with 200 extra cells under keys of their own, all pointing at 2 M characters.
    const documents = (r: number) => ({ Documento: String(46_000_000 + r), Nombre: 'ANA' });
    const wide = widenedWorkbook({
      keys: tpl.keys,
      signature: 'ACRBULK:0:0',
      rows: ROWS,
      values: documents,
      extra: 200,
      long: 2_000_000,
      // Deflated quickly: at the strongest level this sheet took half a minute to make.
      level: 1,
    });
    expect(wide.length).toBeGreaterThan(3 * 1024 * 1024);
    const read = await send(wide);
    console.info(`${dialect}: after the wide workbook ${(peakOf(pid) - before).toFixed(0)} MB`);
    // Read whole (only the template's columns kept), then refused for its signature.
    expect(read.status, JSON.stringify(read.body)).toBe(400);
    expect(read.body.messageKey).toBe('bulk.errors.otherTemplate');
    expect(await alive()).toBe(200);

    // The template's own columns holding the long string: refused once the kept text passes its budget.
    const long = 'L'.repeat(100_000);
    const heavy = widenedWorkbook({
      keys: tpl.keys,
      signature: tpl.signature as string,
      rows: ROWS,
      values: () => Object.fromEntries(tpl.keys.map((k) => [k, long])),
      extra: 0,
      long: 10,
      level: 1,
    });
    const refused = await send(heavy);
    console.info(`${dialect}: after the heavy workbook ${(peakOf(pid) - before).toFixed(0)} MB`);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.messageKey).toBe('bulk.errors.tooMuchText');
    expect(refused.body.message).toContain('MB');
    expect(await alive()).toBe(200);

    // A good workbook with a zip of 25 names pointing at one 8 MB PDF: refused before inflating.
    const good = await tpl.fill([
      {
        FechaInicio: excelDate('2030-01-01'),
        IdTipoDocumento: 'PE DNI',
        Documento: '46000000',
        Apellido: 'QUISPE',
        Nombre: 'ANA',
      },
    ]);
    const big = Buffer.concat([pdf('SCTR'), Buffer.alloc(8 * 1024 * 1024)]);
    const aliases = Array.from({ length: 25 }, (_, i) => ({
      name: `${46_000_000 + i}-sctr-salud.pdf`,
      of: 'big.pdf',
    }));
    const zipped = await send(good, zipOf([{ name: 'big.pdf', data: big }], aliases));
    expect(zipped.status, JSON.stringify(zipped.body)).toBe(400);
    expect(zipped.body.messageKey).toBe('bulk.errors.attachmentsCorrupt');
    expect(await alive()).toBe(200);

    const growth = peakOf(pid) - before;
    console.info(`${dialect}: peak memory ${before.toFixed(0)} MB before, grew by ${growth.toFixed(0)} MB`);
    expect(growth).toBeLessThan(PEAK_GROWTH_MB);
  });
});
