/**
 * First step of `npm test`: the browser tests need Chromium, the badge tests Debian's `pdftoppm`
 * (poppler-utils) to see a printed badge as a picture, and the webhook tests `openssl` to make
 * their receiver's certificate. Finds them, or installs Debian's packages when running as root
 * with apt-get, or stops at once with the command to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureChromium } from '../tests/support/chromium.js';

const has = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;

function ensureTool(binary: string, pkg: string): void {
  if (has(binary)) return;
  const command = `apt-get update && apt-get install -y ${pkg}`;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`${binary} is missing: installing Debian's package (${command})…`);
    spawnSync(
      'sh',
      ['-c', command.replace('apt-get install', 'DEBIAN_FRONTEND=noninteractive apt-get install')],
      {
        stdio: 'inherit',
      },
    );
    if (has(binary)) return;
  }
  throw new Error(`\n*** The tests need ${binary}. Install Debian's package with:\n\n    sudo ${command}\n`);
}

try {
  console.log(`Browser tests will use ${ensureChromium()}`);
  ensureTool('pdftoppm', 'poppler-utils');
  ensureTool('openssl', 'openssl');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
