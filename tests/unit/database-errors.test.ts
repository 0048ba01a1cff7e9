import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../../src/server/db/errors.js';
import { toApiError } from '../../src/server/plugins/errors.js';

const failure = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe('a database out of reach is told apart from a bad query', () => {
  it.each([
    ['nothing listens', failure('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['every address refused', new AggregateError([failure('refused', { code: 'ECONNREFUSED' })], 'connect')],
    [
      'the server shutting down',
      failure('terminating connection due to administrator command', { code: '57P01' }),
    ],
    ['the server starting up', failure('the database system is starting up', { code: '57P03' })],
    ['a connection failure', failure('connection failure', { code: '08006' })],
    ['too many connections', failure('sorry, too many clients already', { code: '53300' })],
    ['a connection cut', failure('Connection terminated unexpectedly')],
    [
      'a client that lost its connection',
      failure('Client has encountered a connection error and is not queryable'),
    ],
    ['SQLite held by another writer', failure('database is locked', { code: 'SQLITE_BUSY' })],
    ['a wrapped cause', failure('query failed', { cause: failure('reset', { code: 'ECONNRESET' }) })],
  ])('%s: 503', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(true);
    expect(toApiError(error)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it.each([
    ['a duplicate', failure('duplicate key', { code: '23505' }), 409],
    ['a missing table', failure('relation does not exist', { code: '42P01' }), undefined],
    ['a NUL in text', failure('invalid byte sequence for encoding "UTF8": 0x00', { code: '22021' }), 400],
    ['a number beyond its column', failure('value out of range for type integer', { code: '22003' }), 400],
    ['a plain error', new Error('boom'), undefined],
  ])('%s: not a 503', (_name, error, status) => {
    expect(databaseUnavailable(error)).toBe(false);
    expect(toApiError(error)?.status).toBe(status);
  });
});
