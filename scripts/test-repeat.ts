/**
 * Runs test files again and again with the machine's other core kept busy, to find the tests
 * that fail only sometimes:
 *
 *   npm run test:repeat -- tests/e2e/access.test.ts tests/api/bulk.test.ts --times 5
 *
 * Options: --times N (default 5); --no-load (no busy core); --workers N (default 1: the test
 * files take one core, the load the other). The load is `stress-ng --cpu 1` where Debian's
 * package is installed, otherwise a busy Node process. Every run's failures are listed with
 * their test names, and a table at the end counts runs and failures per file; the exit code is
 * 1 when anything failed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Options {
  files: string[];
  times: number;
  load: boolean;
  workers: number;
}

function parse(args: string[]): Options {
  const options: Options = { files: [], times: 5, load: true, workers: 1 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--times') options.times = Number(args[++i]);
    else if (arg === '--workers') options.workers = Number(args[++i]);
    else if (arg === '--no-load') options.load = false;
    else options.files.push(arg);
  }
  if (!options.files.length || !(options.times > 0) || !(options.workers > 0)) {
    console.error('usage: npm run test:repeat -- <files…> [--times N] [--workers N] [--no-load]');
    process.exit(2);
  }
  return options;
}

function startLoad(): ChildProcess {
  const stress = spawn('stress-ng', ['--cpu', '1', '--quiet'], { stdio: 'ignore' });
  let fellBack = false;
  const fallback = () => {
    if (fellBack) return;
    fellBack = true;
    console.log('stress-ng not found: a busy Node process keeps one core busy instead');
    Object.assign(stress, { busy: spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) });
  };
  stress.on('error', fallback);
  return stress;
}

function stopLoad(load: ChildProcess) {
  load.kill('SIGKILL');
  (load as ChildProcess & { busy?: ChildProcess }).busy?.kill('SIGKILL');
}

interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

function runOnce(files: string[], workers: number, output: string): Promise<JsonReport | null> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        'vitest',
        'run',
        ...files,
        `--maxWorkers=${workers}`,
        '--reporter=dot',
        '--reporter=json',
        `--outputFile.json=${output}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.on('exit', () => {
      try {
        resolve(JSON.parse(readFileSync(output, 'utf8')) as JsonReport);
      } catch {
        resolve(null);
      }
    });
  });
}

async function main() {
  const options = parse(process.argv.slice(2));
  const load = options.load ? startLoad() : null;
  const stop = () => {
    if (load) stopLoad(load);
  };
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  const folder = mkdtempSync(join(tmpdir(), 'repeat-'));
  const perFile = new Map<string, { runs: number; failed: number; tests: Set<string> }>();
  let brokenRuns = 0;
  try {
    for (let run = 1; run <= options.times; run++) {
      const started = Date.now();
      console.log(`\n— run ${run} of ${options.times} —`);
      const report = await runOnce(options.files, options.workers, join(folder, `run-${run}.json`));
      if (!report) {
        brokenRuns++;
        console.log(`run ${run}: vitest wrote no report`);
        continue;
      }
      for (const file of report.testResults) {
        const name = file.name.replace(`${process.cwd()}/`, '');
        const entry = perFile.get(name) ?? { runs: 0, failed: 0, tests: new Set<string>() };
        entry.runs++;
        const failures = file.assertionResults.filter((t) => t.status === 'failed');
        if (file.status === 'failed') {
          entry.failed++;
          for (const test of failures) {
            entry.tests.add(test.fullName);
            console.log(
              `FAILED ${name} › ${test.fullName}\n${test.failureMessages.join('\n').slice(0, 2000)}`,
            );
          }
          if (!failures.length) {
            entry.tests.add('(the file itself)');
            console.log(`FAILED ${name}: ${file.message ?? ''}`.slice(0, 2000));
          }
        }
        perFile.set(name, entry);
      }
      console.log(`run ${run}: ${Math.round((Date.now() - started) / 1000)} s`);
    }
  } finally {
    stop();
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(`\n${options.load ? 'with one core kept busy' : 'without load'}, ${options.workers} worker(s)`);
  console.log('file\truns\tfailed runs\tfailed tests');
  let failed = brokenRuns;
  for (const [name, entry] of [...perFile].sort()) {
    failed += entry.failed;
    console.log(`${name}\t${entry.runs}\t${entry.failed}\t${[...entry.tests].join(' | ')}`);
  }
  if (brokenRuns) console.log(`runs without a report: ${brokenRuns}`);
  process.exit(failed ? 1 : 0);
}

await main();
