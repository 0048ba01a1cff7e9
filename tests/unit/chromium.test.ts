import { describe, expect, it } from 'vitest';
import {
  ChromiumMissing,
  ensureChromium,
  findChromium,
  INSTALL_COMMAND,
  type System,
} from '../support/chromium.js';

/** A machine with these files, as root or not, where installing adds /usr/bin/chromium. */
function machine(
  files: string[],
  options: { root?: boolean; env?: Record<string, string>; installs?: boolean } = {},
) {
  const present = new Set(files);
  const commands: string[] = [];
  const system: System = {
    env: options.env ?? {},
    exists: (path) => present.has(path),
    list: (dir) =>
      [...present]
        .filter((path) => path.startsWith(`${dir}/`))
        .map((path) => path.slice(dir.length + 1).split('/')[0]),
    home: '/home/ana',
    isRoot: options.root ?? false,
    run: (command) => {
      commands.push(command);
      if (options.installs) present.add('/usr/bin/chromium');
      return options.installs ?? false;
    },
  };
  return { system, commands };
}

describe('finding Chromium for the browser tests', () => {
  it('uses Debian’s Chromium, or another usual one', () => {
    expect(findChromium(machine(['/usr/bin/chromium']).system)).toBe('/usr/bin/chromium');
    expect(findChromium(machine(['/usr/bin/google-chrome']).system)).toBe('/usr/bin/google-chrome');
  });

  it('uses one Playwright downloaded when there is no other', () => {
    const path = '/home/ana/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome';
    expect(findChromium(machine([path]).system)).toBe(path);
  });

  it('prefers CHROMIUM_PATH, and says so when it points nowhere', () => {
    const env = { CHROMIUM_PATH: '/opt/chrome/chrome' };
    expect(findChromium(machine(['/opt/chrome/chrome', '/usr/bin/chromium'], { env }).system)).toBe(
      '/opt/chrome/chrome',
    );
    expect(() => findChromium(machine(['/usr/bin/chromium'], { env }).system)).toThrow(/CHROMIUM_PATH/);
  });

  it('installs Debian’s package itself as root with apt-get', () => {
    const { system, commands } = machine(['/usr/bin/apt-get'], { root: true, installs: true });
    expect(ensureChromium(system, () => undefined)).toBe('/usr/bin/chromium');
    expect(commands).toHaveLength(1);
    expect(commands[0]).toContain('apt-get install -y chromium');
  });

  it('stops at once with the exact command when it cannot install', () => {
    const { system, commands } = machine(['/usr/bin/apt-get'], { root: false });
    expect(() => ensureChromium(system, () => undefined)).toThrow(ChromiumMissing);
    expect(() => ensureChromium(system, () => undefined)).toThrow(`sudo ${INSTALL_COMMAND}`);
    expect(commands).toEqual([]);
    const failing = machine(['/usr/bin/apt-get'], { root: true, installs: false });
    expect(() => ensureChromium(failing.system, () => undefined)).toThrow(/failed/);
  });
});
