import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApp, type TestApp } from '../support/app.js';
import { unlockUser } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

/** Cases per database: every POST, PUT and GET-with-query of the OpenAPI document. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as JSON
type Doc = any;
interface Operation {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query: string[];
  body: string[];
  public: boolean;
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
      out.push({ method: upper, path, query, body, public: (op.security ?? null) !== null });
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

describe.each(DIALECTS)('fuzzing every input of the API on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let operations: Operation[];

  beforeAll(async () => {
    // The sign-in throttle would soon refuse the administrator's own sign-ins after the cases
    // that end its session; throttling has its own tests.
    t = await startTestApp(dialect, {
      auth: { throttle: { perUser: 1e6, perAddress: 1e6, windowMs: 60_000 } },
    });
    token = (await signIn(t.app, 'ADMIN')).accessToken;
    operations = operationsOf((await t.app.inject({ url: '/api/docs/json' })).json());
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
});
