import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { copyTemplateFolder } from './template-folders.js';

/** The product under test: this tree's build, or another's (E2E_ROOT), to see a test fail on it. */
const ROOT = process.env.E2E_ROOT ?? resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/** A server process of the built product, its address, and its output so far. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts the built server (dist/server/main.js) on a free port with `env` over this process's
 * (DATABASE_URL only when given), and waits until it answers its health check.
 */
export async function spawnServer(env: NodeJS.ProcessEnv, databaseUrl?: string): Promise<ServerProcess> {
  for (const built of ['dist/client/index.html', 'dist/server/main.js']) {
    if (!existsSync(join(ROOT, built)))
      throw new Error(`The product is not built (${built} is missing): run \`npm run build\` first.`);
  }
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The sign-in challenge only where a test turns it on (its own browser test).
    SIGN_IN_CHALLENGE: 'off',
    ...env,
  };
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  else delete childEnv.DATABASE_URL;
  if (childEnv.NODE_ENV === undefined) delete childEnv.NODE_ENV;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start within a minute:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => log };
}

/** Kills a server process at once (SIGKILL, as a crash) and waits until it is gone. */
export async function killServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGKILL');
  await exited;
}

/**
 * The real server as `npm start` runs it (the built dist/server/main.js) in production mode on a
 * SQLite database of its own, serving the built console: what a user gets from `npm start`. The
 * database starts as a copy of the run's prepared demo database (templates.ts), which is what the
 * server would load into an empty one; another tree's build (E2E_ROOT) loads its own.
 */
export async function startRealServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'acr-e2e-'));
  if (!process.env.E2E_ROOT) copyTemplateFolder(inject('databaseTemplates').folders.sqlite.demo, dataDir);
  const { url, child, output } = await spawnServer({ NODE_ENV: 'production', DATA_DIR: dataDir, ...env });
  return {
    url,
    dataDir,
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
