import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where a Chromium or Chrome usually is on Debian, Ubuntu and similar systems. */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

/** The command that installs Debian's Chromium, as root. */
export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium';

/** What the search looks at: replaceable in tests. */
export interface System {
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  list: (dir: string) => string[];
  home: string;
  isRoot: boolean;
  /** Runs a shell command with its output shown; true when it succeeded. */
  run: (command: string) => boolean;
}

export const realSystem: System = {
  env: process.env,
  exists: existsSync,
  list: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  home: homedir(),
  isRoot: process.getuid?.() === 0,
  run: (command) => spawnSync('sh', ['-c', command], { stdio: 'inherit' }).status === 0,
};

export class ChromiumMissing extends Error {}

const missing = (detail: string) =>
  new ChromiumMissing(
    `\n*** The browser tests need Chromium, and ${detail} ***\n` +
      `Install Debian's package with:\n\n    sudo ${INSTALL_COMMAND}\n\n` +
      '(or point CHROMIUM_PATH at a Chromium or Chrome executable), then run the tests again.\n',
  );

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set, else the first of the usual
 * places, else one that Playwright downloaded. Throws, with the command to run, when none is there.
 */
export function findChromium(system: System = realSystem): string {
  const asked = system.env.CHROMIUM_PATH;
  if (asked) {
    if (system.exists(asked)) return asked;
    throw missing(`CHROMIUM_PATH (${asked}) does not exist.`);
  }
  const found = CHROMIUM_CANDIDATES.find((path) => system.exists(path));
  if (found) return found;
  const cache = join(system.home, '.cache', 'ms-playwright');
  for (const dir of system
    .list(cache)
    .filter((name) => name.startsWith('chromium'))
    .sort()
    .reverse()) {
    for (const build of ['chrome-linux64/chrome', 'chrome-linux/chrome']) {
      const path = join(cache, dir, build);
      if (system.exists(path)) return path;
    }
  }
  throw missing(`none was found (${CHROMIUM_CANDIDATES.join(', ')}).`);
}

/**
 * Finds Chromium, or installs Debian's package when it can (as root, with apt-get), or throws at
 * once with the exact command to run.
 */
export function ensureChromium(
  system: System = realSystem,
  log: (line: string) => void = console.log,
): string {
  try {
    return findChromium(system);
  } catch (error) {
    if (!(error instanceof ChromiumMissing) || system.env.CHROMIUM_PATH) throw error;
    if (!system.isRoot || !system.exists('/usr/bin/apt-get')) throw error;
    log(`Chromium is missing: installing Debian's package (${INSTALL_COMMAND})…`);
    if (
      !system.run(
        `${INSTALL_COMMAND.replace('apt-get install', 'DEBIAN_FRONTEND=noninteractive apt-get install')}`,
      )
    )
      throw missing('installing it with apt-get failed.');
    return findChromium(system);
  }
}
