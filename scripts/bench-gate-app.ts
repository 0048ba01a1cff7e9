/**
 * `npm run bench:gate-app`: the gate app's offline allow-list at scale, measured where it runs.
 *
 *   npm run bench:gate-app -- --holders 20000 --decisions 2000
 *
 * 1. An allow-list of `holders` accredited workers in the server's own format (src/server/features/
 *    access/allow-list.ts: name, card, document, accreditation dates, the first requirement to
 *    expire, two doors each with a week of day-shift intervals; 2% of as many again demobilised,
 *    named to be turned away), signed with
 *    Ed25519 as the server signs it: its size as JSON, gzip (what the server sends a browser) and brotli;
 * 2. in headless Chromium (Debian's, as the browser tests), the gate app's own code
 *    (src/client/garita/offline.ts, bundled with esbuild): the signature check of the whole payload
 *    (WebCrypto Ed25519; the first check, which includes importing the key, and the median of 20),
 *    the parse and index, and `decisions` offline decisions (half badge tokens verified with the key,
 *    half typed documents; known, demobilised and unknown holders), p50/p95/p99 of each.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { claimsBytes, tokenOf } from '../src/shared/badge-token.js';
import { launchBrowser } from '../tests/support/browser.js';

const { values: args } = parseArgs({
  options: {
    holders: { type: 'string', default: '20000' },
    decisions: { type: 'string', default: '2000' },
  },
});
const HOLDERS = Number(args.holders);
const DECISIONS = Number(args.decisions);

const SURNAMES = [
  'QUISPE',
  'MAMANI',
  'HUAMÁN',
  'FLORES',
  'CHÁVEZ',
  'ROJAS',
  'VARGAS',
  'TORRES',
  'RAMOS',
  'CASTILLO',
];
const NAMES = [
  'JUAN CARLOS',
  'MARÍA ELENA',
  'LUIS ALBERTO',
  'ROSA',
  'JOSÉ',
  'ANA LUCÍA',
  'PEDRO',
  'CARMEN',
  'WILBER',
];
const pick = <T>(list: T[], i: number) => list[i % list.length];
const dayShift = [1, 2, 3, 4, 5, 6, 7].map((Dia) => ({ Dia, HoraInicio: '06:00', HoraFin: '19:30' }));

function payloadOf(holders: number) {
  const entradas = Array.from({ length: holders }, (_, i) => ({
    Titular: `P:${100000 + i}`,
    Nombre: `${pick(SURNAMES, i)} ${pick(SURNAMES, i * 7 + 3)}, ${pick(NAMES, i * 3 + 1)}`,
    Credenciales: [`C-${String(500000 + i)}`],
    Requisito: {
      Nombre: pick(['SCTR SALUD', 'EXAMEN MÉDICO OCUPACIONAL', 'INDUCCIÓN DE SEGURIDAD'], i),
      Vence: '2027-01-31',
    },
    Documento: String(40000000 + i),
    Placa: null,
    Desde: '2026-03-01',
    Hasta: '2027-02-28',
    Puertas: [
      { IdPuerta: 1, Intervalos: dayShift },
      { IdPuerta: 2, Intervalos: dayShift },
    ],
  }));
  const denegados = Array.from({ length: Math.round(holders * 0.02) }, (_, i) => ({
    Titular: `P:${300000 + i}`,
    Nombre: `${pick(SURNAMES, i + 5)}, ${pick(NAMES, i)}`,
    Documento: String(70000000 + i),
    Credenciales: [`C-${String(800000 + i)}`],
    Estado: 'T',
  }));
  return JSON.stringify({
    puntoControl: 1,
    version: 1,
    generado: new Date().toISOString(),
    zonaHoraria: 'America/Lima',
    cliente: 1,
    division: 1,
    descripcion: 'GARITA PRINCIPAL',
    avisoHoras: 24,
    limiteHoras: 72,
    puertas: [
      { IdPuerta: 1, Descripcion: 'ENTRADA', IdDivision: 1, IdZona: 1, Sentido: 'E', Activo: 'S' },
      { IdPuerta: 2, Descripcion: 'SALIDA', IdDivision: 1, IdZona: 1, Sentido: 'S', Activo: 'S' },
    ],
    denegados,
    completo: true,
    entradas,
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function main() {
  const keys = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const privateKey = createPrivateKey(keys.privateKey);
  const payload = payloadOf(HOLDERS);
  const signature = sign(null, Buffer.from(payload), privateKey).toString('base64');
  const raw = Buffer.byteLength(payload);
  const gzip = gzipSync(payload).length;
  const brotli = brotliCompressSync(payload).length;

  // Badge tokens of holders on the list, demobilised and unknown, as the camera would read them.
  const tokens = Array.from({ length: 300 }, (_, i) => {
    const kind = i % 3;
    const id = kind === 0 ? 100000 + ((i * 67) % HOLDERS) : kind === 1 ? 300000 + (i % 50) : 900000 + i;
    const Numero =
      kind === 0 ? `C-${500000 + (id - 100000)}` : kind === 1 ? `C-${800000 + (id - 300000)}` : `C-X${i}`;
    const claims = {
      IdCliente: 1,
      IdDivision: 1,
      IdCredencial: i + 1,
      Numero,
      Titular: `P:${id}`,
      Hasta: '2027-02-28',
    };
    return tokenOf(claims, new Uint8Array(sign(null, claimsBytes(claims), privateKey)));
  });
  const documents = Array.from({ length: 300 }, (_, i) =>
    String(i % 3 === 0 ? 40000000 + ((i * 131) % HOLDERS) : i % 3 === 1 ? 70000000 + (i % 50) : 99000000 + i),
  );

  const bundle = await build({
    entryPoints: [resolve(import.meta.dirname, '../src/client/garita/offline.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'gateOffline',
    target: 'es2022',
  });

  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    // A secure context (localhost), as the app's own origin: WebCrypto is offered only there.
    await page.route('http://localhost/bench', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' }),
    );
    await page.goto('http://localhost/bench');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
    // tsx names the functions of this file with a helper (__name) the page does not have.
    await page.addScriptTag({ content: 'window.__name = (f) => f;' });
    const figures = await page.evaluate(
      async ({ payload, signature, publicKey, tokens, documents, decisions }) => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, typed by what it exports
        const gate = (window as any).gateOffline;
        const body = publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
        const spki = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
        let started = performance.now();
        const key = await crypto.subtle.importKey('spki', spki, { name: 'Ed25519' }, false, ['verify']);
        const genuine = await gate.payloadGenuine(payload, signature, key);
        const firstVerify = performance.now() - started;
        const verifies: number[] = [];
        for (let i = 0; i < 20; i++) {
          started = performance.now();
          await gate.payloadGenuine(payload, signature, key);
          verifies.push(performance.now() - started);
        }
        started = performance.now();
        const list = gate.applyPayload(undefined, JSON.parse(payload));
        const indexed = gate.indexList(list);
        const parseAndIndex = performance.now() - started;
        const at = new Date();
        at.setUTCHours(15, 0, 0, 0); // 10:00 in Lima: inside the day shift
        const times: number[] = [];
        const reasons: Record<string, number> = {};
        for (let i = 0; i < decisions; i++) {
          const reading =
            i % 2 === 0
              ? { kind: 'token', token: tokens[i % tokens.length] }
              : { kind: 'document', Documento: documents[i % documents.length] };
          const t0 = performance.now();
          const answer = await gate.decideOffline(indexed, reading, i % 4 < 2 ? 'E' : 'S', at, key);
          times.push(performance.now() - t0);
          reasons[answer.reason] = (reasons[answer.reason] ?? 0) + 1;
        }
        times.sort((a, b) => a - b);
        verifies.sort((a, b) => a - b);
        const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
        return {
          genuine,
          firstVerify,
          medianVerify: verifies[10],
          parseAndIndex,
          p50: pct(0.5),
          p95: pct(0.95),
          p99: pct(0.99),
          reasons,
        };
      },
      { payload, signature, publicKey: keys.publicKey, tokens, documents, decisions: DECISIONS },
    );
    if (!figures.genuine) throw new Error('the signature did not verify in the browser');
    console.log(
      `gate app allow-list: ${HOLDERS.toLocaleString('en')} holders (+ ${Math.round(HOLDERS * 0.02)} demobilised)`,
    );
    console.log(
      `  size           JSON ${kb(raw)}   gzip ${kb(gzip)} (as served)   brotli ${kb(brotli)}   aim ≤ 1024 KB compressed`,
    );
    console.log(
      `  signature      first ${figures.firstVerify.toFixed(1)} ms (key import included)   median of 20 ${figures.medianVerify.toFixed(1)} ms   aim ≤ 200 ms`,
    );
    console.log(`  parse + index  ${figures.parseAndIndex.toFixed(1)} ms (once per version)`);
    console.log(
      `  decision       p50 ${figures.p50.toFixed(2)} ms   p95 ${figures.p95.toFixed(2)} ms   p99 ${figures.p99.toFixed(2)} ms over ${DECISIONS} (half tokens)   aim p95 ≤ 20 ms`,
    );
    console.log(`  answers        ${JSON.stringify(figures.reasons)}`);
  } finally {
    await browser.close();
  }
}

await main();
