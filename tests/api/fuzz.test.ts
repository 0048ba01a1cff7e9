import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, pdf, png } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { unlockUser } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

/** Cases per database: every POST, PUT and GET-with-query of the OpenAPI document. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** Cases per database for the multipart calls and the device calls. */
const UPLOAD_RUNS = Number(process.env.FUZZ_UPLOAD_RUNS ?? 3_000);

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as JSON
type Doc = any;
interface Operation {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query: string[];
  body: string[];
  public: boolean;
  multipart: boolean;
}

/** The operations a caller can feed input to, from the document the server publishes. */
function operationsOf(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries<Doc>(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries<Doc>(ops)) {
      const upper = method.toUpperCase();
      const query = (op.parameters ?? []).filter((p: Doc) => p.in === 'query').map((p: Doc) => p.name);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const body = Object.keys(bodySchema?.properties ?? {});
      if (upper === 'GET' && !query.length && !path.includes('{')) continue;
      if (upper !== 'GET' && upper !== 'POST' && upper !== 'PUT') continue;
      // A multipart call says so: its body's content type, or (a body read by the call) its description.
      const multipart =
        Boolean(op.requestBody?.content?.['multipart/form-data']) ||
        /multipart/i.test(`${op.summary ?? ''} ${op.description ?? ''}`);
      out.push({ method: upper, path, query, body, public: (op.security ?? null) !== null, multipart });
    }
  }
  return out;
}

/** Values no handler should take: beyond columns, NUL and control characters, huge, wrong types. */
const badScalar = fc.oneof(
  fc.constantFrom(2_147_483_648, -2_147_483_649, 2 ** 53 + 2, 1e308, -1e308, 0.5, -1),
  fc.constantFrom(
    '\u0000',
    'A\u0000B',
    '\u0001\u0002\u001f',
    '\u202e\uffff',
    '\ud800',
    '%00',
    '../..',
    "' OR 1=1 --",
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'X'.repeat(n)),
  fc.constantFrom(true, false, null, '', ' ', '[]', '{}', 'null', 'NaN', '1e999', '2147483648', '-0'),
  fc.integer(),
  fc.double({ noNaN: true }),
);
const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
const nested = fc.integer({ min: 20, max: 400 }).map((depth) => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});
const badValue = fc.oneof(
  { weight: 6, arbitrary: badScalar },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: fc.array(badScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(prototypeKey, fc.string()), badScalar, { maxKeys: 4 }) },
);

/** A path segment from any value; a lone surrogate becomes an invalid UTF-8 escape, as a crafted URL would. */
function pathSegment(value: unknown): string {
  try {
    return encodeURIComponent(queryValue(value)).slice(0, 300);
  } catch {
    return '%ED%A0%80';
  }
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The text fields the multipart calls read, and names no call reads. */
const multipartField = fc.oneof(
  fc.constantFrom(
    'IdSolicitud',
    'IdDatoEvaluar',
    'IdVisitaPersona',
    'IdEntidad',
    'IdPersona',
    'IdVehiculo',
    'IdRequisito',
    'IdContrato',
    'IdPerfilAcreditacion',
    'IdAcreditacion',
    'Acreditaciones',
    'Observacion',
    'FechaDesmovilizacion',
    'Detalle',
  ),
  prototypeKey,
  fc.constantFrom('Nota\u0000', ''),
  fc.string({ maxLength: 20 }),
);
/** A multipart text: a bad scalar or value as text, JSON-looking text, or a plausible id. */
const multipartText = fc.oneof(
  badValue.map((v) => queryValue(v).slice(0, 20_000)),
  fc.constantFrom(
    '[1e400]',
    '[1,2,"x"]',
    '[{"IdDatoEvaluar":1e400}]',
    '[{"Valor":"A\\u0000"}]',
    '[',
    '1',
    'T',
  ),
  fc.nat(50).map(String),
);
const upload = fc.record({
  field: fc.oneof(fc.constantFrom('file', 'adjuntos', 'Archivo1', '1', 'foto'), fc.string({ maxLength: 10 })),
  name: fc.oneof(
    fc.constantFrom(
      'carta.pdf',
      'a\u0000.pdf',
      '../../x.pdf',
      '',
      'ñandú.xlsx',
      'x'.repeat(400),
      'adjuntos.zip',
    ),
    fc.string({ maxLength: 30 }),
  ),
  bytes: fc.oneof(
    fc.constant(Buffer.from(pdf('FUZZ'))),
    fc.constant(png(150, 160)),
    fc.constant(Buffer.alloc(0)),
    fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
    fc
      .uint8Array({ maxLength: 512 })
      .map((a) => Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from(a)])),
    fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(a)])),
  ),
  type: fc.constantFrom('application/pdf', 'image/png', 'application/octet-stream', 'text/plain'),
});

describe.each(DIALECTS)('fuzzing every input of the API on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let requester: string;
  let deviceKey: string;
  let operations: Operation[];

  beforeAll(async () => {
    // The sign-in throttle would soon refuse the administrator's own sign-ins after the cases
    // that end its session; throttling has its own tests.
    t = await startTestApp(dialect, {
      auth: { throttle: { perUser: 1e6, perAddress: 1e6, windowMs: 60_000 } },
    });
    token = (await signIn(t.app, 'ADMIN')).accessToken;
    requester = (await signIn(t.app, 'SOLICITANTE')).accessToken;
    operations = operationsOf((await t.app.inject({ url: '/api/docs/json' })).json());
    const issued = await call(t.app, { method: 'POST', url: '/api/acceso/equipo/1/clave', token });
    deviceKey = issued.body.result.key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`answers ${RUNS} bad inputs with a 4xx and the error shape, never a 5xx or a stack trace`, async () => {
    expect(operations.length).toBeGreaterThan(200);
    const seen = new Set<string>();
    const input = fc.record({
      operation: fc.integer({ min: 0, max: operations.length - 1 }),
      signedIn: fc.boolean(),
      id: fc.oneof(badScalar, fc.constantFrom('1', '0', '-1')),
      query: fc.array(fc.tuple(fc.oneof(fc.nat(20), prototypeKey), badValue), { maxLength: 4 }),
      body: fc.oneof(
        {
          weight: 5,
          arbitrary: fc.record({
            fields: fc.array(fc.tuple(fc.oneof(fc.nat(40), prototypeKey), badValue), { maxLength: 6 }),
          }),
        },
        { weight: 1, arbitrary: fc.record({ whole: badValue }) },
      ),
      raw: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom('{', '{"a":', '[1,2', '\u0000', '{"__proto__":{"x":1}}'),
      ),
    });
    await fc.assert(
      fc.asyncProperty(input, async (c) => {
        const op = operations[c.operation];
        const path = op.path.replace(/\{[^}]+\}/g, () => pathSegment(c.id));
        const params = new URLSearchParams();
        for (const [key, value] of c.query) {
          const name = typeof key === 'number' ? (op.query[key % Math.max(op.query.length, 1)] ?? 'x') : key;
          params.append(name, queryValue(value).slice(0, 5000));
        }
        let payload: string | undefined;
        if (op.method !== 'GET') {
          if (c.raw !== undefined) payload = c.raw;
          else if ('fields' in c.body) {
            const body: Record<string, unknown> = {};
            for (const [key, value] of c.body.fields) {
              const name =
                typeof key === 'number' ? (op.body[key % Math.max(op.body.length, 1)] ?? 'x') : key;
              body[name] = value;
            }
            payload = JSON.stringify(body);
          } else payload = JSON.stringify(c.body.whole);
        }
        const qs = params.toString();
        const res = await t.app.inject({
          method: op.method,
          url: `${path}${qs ? `?${qs}` : ''}`,
          payload,
          headers: {
            'content-type': 'application/json',
            'accept-language': 'en',
            ...(c.signedIn ? { authorization: `Bearer ${token}` } : {}),
          },
          remoteAddress: `10.77.${c.operation % 250}.${seen.size % 250}`,
        });
        seen.add(`${op.method} ${op.path}`);
        const text = res.body;
        expect(
          res.statusCode,
          `${op.method} ${path}?${qs} ${payload?.slice(0, 200)}: ${text.slice(0, 300)}`,
        ).toBeLessThan(500);
        expect(text, `${op.method} ${path}`).not.toMatch(/\n\s+at [\w.<]+ \(|node_modules|\.ts:\d+/);
        if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
          const error = res.json();
          expect(error, `${op.method} ${path}`).toMatchObject({
            status: res.statusCode,
            code: expect.any(String),
          });
        }
        // A case that ended the administrator's session (sign-out, a lock after wrong current
        // passwords) is followed by a fresh one.
        if (c.signedIn && res.statusCode === 401) {
          await unlockUser(t.app, 'ADMIN');
          token = (await signIn(t.app, 'ADMIN')).accessToken;
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123), endOnFailure: true },
    );
    // The cases reached most of the document's operations.
    expect(seen.size).toBeGreaterThan(operations.length * 0.9);
  }, 600_000);

  /** An answer that must be a 4xx (or a success) in the one error shape, never a 5xx or a trace. */
  const expectHandled = (
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    what: string,
  ) => {
    expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
    expect(res.body, what).not.toMatch(/\n\s+at [\w.<]+ \(|node_modules|\.ts:\d+/);
    if (res.statusCode >= 400 && String(res.headers['content-type']).includes('json'))
      expect(JSON.parse(res.body), what).toMatchObject({ status: res.statusCode, code: expect.any(String) });
  };

  it(`answers ${UPLOAD_RUNS} bad multipart bodies (fields, file names, files, cut short) with a 4xx, never a 5xx`, async () => {
    const calls = operations.filter((op) => op.multipart);
    expect(calls.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/acreditacionsolicitud/UploadSolicitanteArchivo',
        'POST /api/acreditacionsolicitud/crearsolicitantefoto',
        'POST /api/acreditacionsolicitud/cargamasiva',
        'POST /api/acreditaciondesmovilizacion/crear',
        'POST /api/acreditacionrequisitosolicitud/crear',
        'PUT /api/acreditacionvisitapersonadetalle/actualizararchivo',
      ]),
    );
    const seen = new Set<string>();
    const input = fc.record({
      call: fc.integer({ min: 0, max: calls.length - 1 }),
      who: fc.constantFrom('requester', 'requester', 'admin', 'nobody'),
      fields: fc.array(fc.tuple(multipartField, multipartText), { maxLength: 6 }),
      files: fc.array(upload, { maxLength: 2 }),
      // The body whole, cut short at some byte, or under another boundary than the one announced.
      cut: fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 1, noNaN: true })),
      boundary: fc.constantFrom('same', 'same', 'same', 'other', 'none'),
    });
    await fc.assert(
      fc.asyncProperty(input, async (c) => {
        const op = calls[c.call];
        const body = multipart(Object.fromEntries(c.fields), c.files);
        const payload =
          c.cut === undefined
            ? body.payload
            : body.payload.subarray(0, Math.floor(body.payload.length * c.cut));
        const contentType =
          c.boundary === 'same'
            ? body.headers['content-type']
            : c.boundary === 'other'
              ? 'multipart/form-data; boundary=----otra'
              : 'multipart/form-data';
        const bearer = c.who === 'requester' ? requester : c.who === 'admin' ? token : undefined;
        const res = await t.app.inject({
          method: op.method,
          url: op.path,
          payload,
          headers: {
            'content-type': contentType,
            'accept-language': 'en',
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          },
        });
        seen.add(op.path);
        expectHandled(res, `${op.method} ${op.path} ${JSON.stringify(c.fields).slice(0, 200)}`);
      }),
      { numRuns: UPLOAD_RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123), endOnFailure: true },
    );
    expect(seen.size).toBe(calls.length);
  }, 600_000);

  it(`answers ${UPLOAD_RUNS} bad device calls (decisions, batches, allow-lists) with a 4xx, never a 5xx`, async () => {
    const presented = fc.dictionary(
      fc.oneof(
        fc.constantFrom('IdPuerta', 'Funcion', 'Credencial', 'Documento', 'Placa', 'FechaHora', 'IdMarca'),
        prototypeKey,
      ),
      fc.oneof(badValue, fc.constantFrom(1, 2, 'E', 'S', 'FC-000245', '40000000', new Date().toISOString())),
      { maxKeys: 6 },
    );
    const input = fc.record({
      call: fc.constantFrom('decidir', 'marcaciones', 'listapermitidos'),
      key: fc.oneof(
        fc.constant('valid'),
        fc.constantFrom('', 'eq1.nope', 'x'.repeat(500), 'A\u0000'),
        fc.string(),
      ),
      body: fc.oneof(
        { weight: 4, arbitrary: presented },
        { weight: 1, arbitrary: badValue },
        {
          weight: 1,
          arbitrary: fc.constantFrom('{', '{"IdPuerta":1e400}', '{"Marcas":[{"IdMarca":1e400}]}'),
        },
      ),
      batch: fc.array(presented, { maxLength: 5 }),
      query: fc.dictionary(fc.constantFrom('puntoControl', 'version', 'x'), badValue, { maxKeys: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(input, async (c) => {
        const authorization = `Device ${c.key === 'valid' ? deviceKey : c.key}`;
        let res: Awaited<ReturnType<typeof t.app.inject>>;
        if (c.call === 'listapermitidos') {
          const params = new URLSearchParams();
          for (const [name, value] of Object.entries(c.query))
            params.append(name, queryValue(value).slice(0, 500));
          if (!('puntoControl' in c.query)) params.append('puntoControl', '1');
          res = await t.app.inject({
            url: `/api/acceso/listapermitidos?${params}`,
            headers: { authorization, 'accept-language': 'en' },
          });
        } else {
          const payload =
            typeof c.body === 'string' && c.body.startsWith('{')
              ? c.body
              : JSON.stringify(
                  c.call === 'marcaciones' && typeof c.body === 'object' ? { Marcas: c.batch } : c.body,
                );
          res = await t.app.inject({
            method: 'POST',
            url: `/api/acceso/${c.call}`,
            payload,
            headers: { authorization, 'content-type': 'application/json', 'accept-language': 'en' },
          });
        }
        expectHandled(res, `${c.call} ${JSON.stringify(c).slice(0, 300)}`);
      }),
      { numRuns: UPLOAD_RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123), endOnFailure: true },
    );
  }, 600_000);
});
