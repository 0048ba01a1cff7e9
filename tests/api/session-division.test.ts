import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/**
 * The division parameter of the request, dashboard and report calls is the session's: another one
 * is refused on the field (400, in the caller's language), never ignored; the session's own, or
 * none, answers as before.
 */
describe.each(DIALECTS)('the session’s division on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    division: SOUTH,
    ready: async () => {
      const rows = (await w
        .db()
        .selectFrom(w.table('division'))
        .select(['IdDivision', 'Division'])
        .execute()) as Json[];
      south = rows.find((d) => d.Division === SOUTH).IdDivision;
      north = rows.find((d) => d.Division !== SOUTH).IdDivision;
    },
  });
  let south: number;
  let north: number;
  const calls: Array<[string, string]> = [
    ['requester', '/api/acreditacionsolicitud/dashboard?CantMeses=1'],
    ['admin', '/api/acreditacionsolicitud/dashboarddotacion'],
    ['admin', '/api/reporte/eficiencia'],
    ['requester', '/api/acreditacionsolicitud/filtrar?take=5'],
  ];

  it('answers for the session’s division and refuses another', async () => {
    for (const [who, url] of calls) {
      const own = await w.as(who, 'GET', `${url}${url.includes('?') ? '&' : '?'}IdDivision=${south}`);
      expect(own.status, `${url} ${JSON.stringify(own.body).slice(0, 200)}`).toBe(200);
      const other = await w.as(who, 'GET', `${url}${url.includes('?') ? '&' : '?'}IdDivision=${north}`);
      expect(other.status, url).toBe(400);
      expect(other.body.errors.IdDivision.message).toBe(
        'The division asked is not the session’s: switch divisions from your user menu.',
      );
      const spanish = await w.as(
        who,
        'GET',
        `${url}${url.includes('?') ? '&' : '?'}IdDivision=${north}`,
        undefined,
        {
          headers: { 'accept-language': 'es' },
        },
      );
      expect(spanish.body.errors.IdDivision.message).toContain('no es la de la sesión');
    }
  });
});
