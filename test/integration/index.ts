// Entry point of the in-host mocha suite, in the shape @vscode/test-electron and the code-server
// payload runner both expect: `run()` resolves when every test passed and rejects otherwise.
// The compiled suites (out/test/integration/**/*.test.js) are found by walking this folder.
//
// Results leave the extension host two ways, because the browser-hosted runner cannot read mocha's
// objects: a JSON file at COMPUTE_TOOLKIT_TEST_RESULTS (the extension host inherits code-server's
// environment), and the usual spec reporter on the console.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** Same shape as every other layer's results in test-results/. */
export interface SuiteResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
  /** The slowest tests, slowest first (where the phase's time goes; printed by scripts/vscode-web/run.mjs). */
  slowest?: { title: string; seconds: number }[];
}

/** How many of the slowest tests the results name. */
const SLOWEST_KEPT = 10;

/** A test's bound: minutes, since CI is a shared 2-core machine (a passing test takes what it needs). */
const TEST_TIMEOUT_MS = 180_000;

function findTestFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTestFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

function writeResults(results: SuiteResults): void {
  const file = process.env.COMPUTE_TOOLKIT_TEST_RESULTS;
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: TEST_TIMEOUT_MS, color: false, reporter: 'spec' });
  // Developers narrow a run with e.g. COMPUTE_TOOLKIT_TEST_GREP="chat".
  const grep = process.env.COMPUTE_TOOLKIT_TEST_GREP;
  if (grep) mocha.grep(grep);

  const files = findTestFiles(__dirname);
  for (const file of files) mocha.addFile(file);

  const results: SuiteResults = { passed: 0, failed: 0, skipped: 0, failures: [] };
  return new Promise<void>((resolve, reject) => {
    if (files.length === 0) {
      results.failed = 1;
      results.failures.push(`harness: no *.test.js files under ${__dirname}`);
      writeResults(results);
      reject(new Error(results.failures[0]));
      return;
    }
    try {
      const durations: { title: string; seconds: number }[] = [];
      const runner = mocha.run((failures) => {
        results.slowest = durations.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_KEPT);
        writeResults(results);
        if (failures > 0 || results.failed > 0) reject(new Error(`${results.failed} of ${results.passed + results.failed} in-host tests failed`));
        else resolve();
      });
      runner.on('test end', (test) => {
        if (test.duration !== undefined) durations.push({ title: test.fullTitle(), seconds: test.duration / 1000 });
      });
      runner.on('pass', () => { results.passed += 1; });
      runner.on('pending', () => { results.skipped += 1; });
      // Also fires for failing hooks, so a broken before() is a counted failure, not a silent skip.
      runner.on('fail', (test, error: unknown) => {
        results.failed += 1;
        const message = error instanceof Error ? error.message : String(error);
        results.failures.push(`${test.fullTitle()}: ${message.split('\n')[0] ?? ''}`);
      });
    } catch (error) {
      // A suite file that throws at load time lands here; report it as one failure.
      results.failed += 1;
      results.failures.push(`harness: loading the suites failed: ${error instanceof Error ? error.message : String(error)}`);
      writeResults(results);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
