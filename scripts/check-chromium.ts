/**
 * First step of `npm test`: the browser tests need Chromium. Finds it, or installs Debian's
 * package when running as root with apt-get, or stops at once with the command to run.
 */
import { ensureChromium } from '../tests/support/chromium.js';

try {
  console.log(`Browser tests will use ${ensureChromium()}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
