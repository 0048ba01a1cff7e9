/**
 * The per-file seconds of a test run, as docs/testing.md keeps them: the ten slowest files, then
 * every file by project, from vitest's JSON report:
 *
 *   npm test -- --reporter=default --reporter=json --outputFile.json=run.json
 *   npx tsx scripts/test-times.ts run.json
 *
 * Prints Markdown. A file's seconds are from its first test's start to its last one's end in its
 * worker (set-up included), so the sum of a project's files is more than its wall time: two
 * workers run side by side.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; status: string }>;
}

const path = process.argv[2];
if (!path) {
  console.error('usage: tsx scripts/test-times.ts <vitest JSON report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
const files = report.testResults.map((f) => {
  const name = relative(process.cwd(), f.name).replace(/^.*?(tests|workflows)\//, '$1/');
  const project = name.startsWith('tests/e2e/') ? 'browser' : name.startsWith('tests/api/') ? 'api' : 'unit';
  return { name, project, seconds: (f.endTime - f.startTime) / 1000, status: f.status };
});
const s = (n: number) => n.toFixed(1);

console.log(
  `${files.length} files, ${report.numTotalTests} tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed.\n`,
);
console.log('The ten slowest:\n\n| file | s |\n| --- | ---: |');
for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 10))
  console.log(`| ${f.name} | ${s(f.seconds)} |`);
for (const project of ['unit', 'api', 'browser']) {
  const mine = files.filter((f) => f.project === project).sort((a, b) => a.name.localeCompare(b.name));
  const total = mine.reduce((sum, f) => sum + f.seconds, 0);
  console.log(`\n${project}: ${mine.length} files, ${s(total)} s in all\n`);
  console.log(
    mine.map((f) => `${f.name.replace(/^tests\/(unit|api|e2e)\//, '')} ${s(f.seconds)}`).join(' · '),
  );
}
