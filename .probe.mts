import { launchBrowser, PHONE } from './tests/support/browser.js';
import { consoleSession, signedInPage } from './tests/support/console.js';
import { screenshot } from './tests/support/shots.js';

const base = 'http://127.0.0.1:3991';
for (let i = 0; i < 180; i++) {
  try { if ((await fetch(`${base}/api/health`)).ok) break; } catch {}
  await new Promise((r) => setTimeout(r, 1000));
}
const tokenOf = async (user: string) =>
  JSON.parse((await consoleSession(base, user, { division: 'UNIDAD MINERA SAN GABRIEL' })).origins[0].localStorage[0].value).accessToken;
const call = async (token: string, method: string, path: string, body?: object) => {
  const r = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'es' }, body: body && JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};
const trainer = await tokenOf('INDUCCION');
const requester = await tokenOf('SOLICITANTE');
const authoriser = await tokenOf('AUTORIZADOR');
// Another company's booking (the demo's PERVOSUR workers on session 3), seen by the trainer.
const detail = await call(trainer, 'GET', '/api/induccion/sesiones/3');
const foreign = detail.body.result.reservas.find((r: any) => r.Compania !== 'SERMIPAC');
const record = (await call(trainer, 'GET', '/api/induccion/sesiones/1')).body.result.reservas.find((r: any) => r.Compania !== 'SERMIPAC' && r.IdRegistro);
const probes: Array<[string, string, string, string, object?]> = [
  ['requester', requester, 'DELETE', `/api/induccion/reservas/${foreign.IdInscripcion}`],
  ['requester', requester, 'GET', `/api/induccion/reservas/${foreign.IdInscripcion}/enlace`],
  ['requester', requester, 'GET', `/api/induccion/registros/${record.IdRegistro}/certificado`],
  ['requester', requester, 'POST', '/api/induccion/sesiones/3/reservas', { IdPersonas: [foreign.IdPersona] }],
  ['requester', requester, 'POST', '/api/induccion/sesiones/3/asistencia', { codigo: foreign.Documento }],
  ['requester', requester, 'GET', '/api/induccion/reporte?desde=2026-11-01&hasta=2026-11-30'],
  ['authoriser', authoriser, 'GET', '/api/induccion/sesiones/3'],
  ['authoriser', authoriser, 'GET', '/api/induccion/personal'],
  ['trainer', trainer, 'POST', '/api/induccion/sesiones/3/reservas', { IdPersonas: 'todos' }],
  ['trainer', trainer, 'PUT', '/api/induccion/sesiones/3/resultados', { resultados: [{ IdInscripcion: foreign.IdInscripcion, Asistio: 'S', Nota: 150 }] }],
  ['trainer', trainer, 'POST', '/api/induccion/sesiones/3/cerrar'],
  ['trainer', trainer, 'POST', '/api/rest/training-session', { IdCurso: 1, Fecha: '2020-01-01', HoraInicio: '08:00', HoraFin: '07:00', Sala: 'X', Capacidad: 0, IdInstructor: 'INDUCCION', Idioma: 'ES' }],
  ['trainer', trainer, 'GET', '/api/induccion/reporte?desde=2026-11-30&hasta=2026-11-01'],
  ['trainer', trainer, 'POST', '/api/induccion/verificar', { token: 'IN1.abc.def' }],
];
for (const [who, token, method, path, body] of probes) {
  const r = await call(token, method, path, body);
  console.log(`${r.status} ${who} ${method} ${path} → ${r.body.message ?? JSON.stringify(r.body.result).slice(0, 80)}`);
}
const browser = await launchBrowser();
const problems: string[] = [];
const shots: Array<[string, string, string, boolean, string]> = [
  ['INDUCCION', '/induccion/sesiones', 'p-trainer-calendar', false, 'es'],
  ['INDUCCION', '/induccion/sesiones?sesion=3', 'p-trainer-session-phone', true, 'es'],
  ['INDUCCION', '/induccion/reporte', 'p-trainer-report-phone', true, 'en'],
  ['SOLICITANTE', '/induccion/reservas', 'p-requester', false, 'en'],
  ['SOLICITANTE', '/induccion/reservas', 'p-requester-phone', true, 'es'],
  ['SOLICITANTE', '/hotel/reservas', 'p-requester-hotel', false, 'es'],
  ['ADMIN', '/induccion/sesiones?sesion=1', 'p-admin-session', false, 'en'],
  ['ADMIN', '/course', 'p-admin-courses-phone', true, 'es'],
];
for (const [user, path, name, phone, lang] of shots) {
  const page = await signedInPage(browser, base, user, problems, { division: 'UNIDAD MINERA SAN GABRIEL', context: phone ? { ...PHONE } : { viewport: { width: 1366, height: 860 } } });
  await page.goto(`${base}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1200);
  if (name === 'p-requester') { await page.getByRole('tab').nth(1).click(); await page.waitForTimeout(1200); }
  await screenshot(page, `/tmp/shots/${name}.png`, true);
  await page.context().close();
}
await browser.close();
console.log('problems:', problems.join('\n'));
