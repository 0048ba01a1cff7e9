import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/shared/modules.js';
import { type CallOptions, call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('application on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN' },
  });
  const api = (options: CallOptions) => call(w.app, { token: w.tokens.admin, ...options });

  // PostgreSQL only: SQLite has no connections to lose.
  if (dialect === 'postgres')
    it('survives the database ending its connections, idle or busy, and goes on answering', async () => {
      const { databaseUrl } = w.t.db.location;
      const terminate = async () => {
        const other = new pg.Client({ connectionString: databaseUrl });
        await other.connect();
        await other.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        await other.end();
      };
      // Idle connections in the pool.
      expect((await api({ method: 'GET', url: '/api/rest/country' })).status).toBe(200);
      await terminate();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A connection in the middle of a query: the query fails, the process does not.
      const busy = sql`select pg_sleep(5)`.execute(w.app.database.db).then(
        () => 'finished',
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminate();
      expect(await busy).toMatch(/terminat/);
      // The pool learns of its other idle connections' end as their sockets report it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const res = await api({ method: 'GET', url: '/api/rest/country' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
    });

  it('reports health with the dialect in use', async () => {
    const res = await api({ method: 'GET', url: '/api/health' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: dialect });
  });

  it('describes modules and every resource with its schema for the console', async () => {
    const res = await api({ method: 'GET', url: '/api/meta' });
    expect(res.status).toBe(200);
    expect(res.body.modules).toEqual([...MODULES]);
    const names = res.body.resources.map((r: { name: string }) => r.name);
    // Every screen's resource, and the hidden ones a screen reads (the people's employments).
    expect(names).toEqual(
      w.registry.entities.filter((e) => !e.hidden || e.name === 'person-employment').map((e) => e.name),
    );
    const person = res.body.resources.find((r: { name: string }) => r.name === 'person');
    expect(person).toMatchObject({ module: 'administration', primaryKey: 'IdPersona', perPage: 20 });
    // Named patterns arrive expanded, so the forms validate exactly like the server.
    expect(person.schema.properties.Apellido.pattern).toBeTypeOf('string');
  });

  it('publishes an OpenAPI document built from the schemas, and a browsable page', async () => {
    const doc = await api({ method: 'GET', url: '/api/docs/json' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const entity of w.registry.entities) {
      const collection = Object.keys(doc.body.paths[`/api/rest/${entity.name}`]);
      const item = Object.keys(doc.body.paths[`/api/rest/${entity.name}/{id}`]);
      if (entity.readOnly || entity.workflow) {
        expect(collection).toEqual(['get']);
        expect(item).toEqual(['get']);
      } else {
        expect(collection).toEqual(expect.arrayContaining(['get', 'post']));
        expect(item).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
      }
    }
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/usuario/authenticate', '/api/SeguridadMenu/obtenerMenu']),
    );
    const body = doc.body.paths['/api/rest/country'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['IdPais', 'Pais', 'Activo']);
    expect(body.properties.Pais.maxLength).toBe(60);
    const page = await w.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('answers unknown API paths with the error shape, never HTML', async () => {
    const res = await api({ method: 'GET', url: '/api/nothing-here' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND', messageKey: 'api.errors.NOT_FOUND' });
  });
});
