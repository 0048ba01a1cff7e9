import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { smppUrlProblem, smsSourceValid } from './auth/sms.js';

/** A gate's decision budget unless GATE_DECISION_BUDGET_MS says otherwise: past it the gate is told to deny (fail closed). */
export const GATE_DECISION_BUDGET_MS = 200;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where attachments and photos are kept (FILES_DIR, by default <DATA_DIR>/files). */
  filesDir: string;
  databaseUrl?: string;
  production: boolean;
  /** Load the demo data set into an empty database at start-up. */
  demo: boolean;
  logLevel: string;
  /** Server processes sharing the port (Node cluster); the database is prepared once, before them. */
  workers: number;
  /** Secret that keys the one-time codes' hashes; when absent one is made and kept in the database. */
  authSecret?: string;
  /** Days a key signs access tokens before a new one replaces it (SIGNING_KEY_DAYS, 30 by default). */
  signingKeyDays: number;
  /**
   * The proof-of-work challenge on sign-in, code resend, recovery and unlock (SIGN_IN_CHALLENGE,
   * on by default; `off` for a closed network or for scripts that call the API).
   */
  signInChallenge: boolean;
  /** SMTP server for codes and temporary passwords; when absent they stay in the outbox. */
  smtpUrl?: string;
  mailFrom?: string;
  /**
   * Without SMTP, print each message, its code or temporary password included, on the server's
   * standard output (MAIL_CONSOLE=on). For development and demos; off in production by default.
   */
  mailConsole: boolean;
  /**
   * SMS centre for codes sent by phone (SMPP_URL: smpp://system_id:password@host:port, or ssmpp://
   * over TLS); without it a login setting cannot choose the phone channel.
   */
  smppUrl?: string;
  /** The SMS sender id (SMPP_SOURCE): up to 11 letters and digits, or a number. */
  smppSource?: string;
  /** A gate's decision budget (GATE_DECISION_BUDGET_MS, 200 by default): past it the gate is told to deny. */
  gateDecisionBudgetMs: number;
  /** Certificate authorities (PEM) webhook endpoints may be signed by besides the system's (WEBHOOK_CA_FILE). */
  webhookCa?: string;
}

function wholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = Number(env[name] || fallback);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${env[name]}`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not ${env.PORT}`);
  const budget = Number(env.GATE_DECISION_BUDGET_MS || GATE_DECISION_BUDGET_MS);
  if (!Number.isInteger(budget) || budget < 50 || budget > 60_000)
    throw new Error(
      `GATE_DECISION_BUDGET_MS must be whole milliseconds from 50 to 60000, not ${env.GATE_DECISION_BUDGET_MS}`,
    );
  const smppUrl = env.SMPP_URL || undefined;
  const smppProblem = smppUrl && smppUrlProblem(smppUrl);
  if (smppProblem)
    throw new Error(`SMPP_URL must look like smpp://system_id:password@host:2775: ${smppProblem}`);
  const smppSource = env.SMPP_SOURCE || undefined;
  if (smppSource && !smsSourceValid(smppSource))
    throw new Error(`SMPP_SOURCE must be up to 11 letters and digits, or a number, not ${smppSource}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    filesDir: resolve(env.FILES_DIR ?? join(env.DATA_DIR ?? './data', 'files')),
    databaseUrl: env.DATABASE_URL || undefined,
    production: env.NODE_ENV === 'production',
    demo: env.DEMO_DATA !== 'off',
    logLevel: env.LOG_LEVEL ?? 'info',
    workers: Math.max(1, Number(env.WEB_CONCURRENCY ?? 1) || 1),
    authSecret: env.AUTH_SECRET || undefined,
    signingKeyDays: wholeNumber(env, 'SIGNING_KEY_DAYS', 30, 1, 365),
    signInChallenge: env.SIGN_IN_CHALLENGE !== 'off',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    mailConsole: env.MAIL_CONSOLE ? env.MAIL_CONSOLE === 'on' : env.NODE_ENV !== 'production',
    smppUrl,
    smppSource,
    gateDecisionBudgetMs: budget,
    webhookCa: env.WEBHOOK_CA_FILE ? readFileSync(env.WEBHOOK_CA_FILE, 'utf8') : undefined,
  };
}
