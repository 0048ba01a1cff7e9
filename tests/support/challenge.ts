import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';
import { call } from './app.js';

/** A sign-in challenge as the console fetches it (GET /api/auth/challenge). */
export async function fetchChallenge(
  app: FastifyInstance,
  { usuario, remoteAddress }: { usuario?: string; remoteAddress?: string } = {},
): Promise<Challenge> {
  const res = await call(app, {
    method: 'GET',
    url: `/api/auth/challenge${usuario ? `?usuario=${encodeURIComponent(usuario)}` : ''}`,
    remoteAddress,
  });
  if (res.status !== 200 || !res.body.parameters)
    throw new Error(`no challenge: ${JSON.stringify(res.body)}`);
  return res.body as Challenge;
}

/** Solves a challenge the way the widget's workers do, and encodes the answer as the widget sends it. */
export async function answer(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved in time');
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/** A fresh, solved tokenClient. */
export async function solvedToken(
  app: FastifyInstance,
  options: { usuario?: string; remoteAddress?: string } = {},
): Promise<string> {
  return answer(await fetchChallenge(app, options));
}
