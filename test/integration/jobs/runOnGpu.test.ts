// Run on GPU inside the real VS Code against the sandbox: with .compute/run.json in the workspace, Run
// Again is one command: the cost question defaults to Cancel (Enter does not spend), choosing Run syncs
// the folder to the sandbox NAS volume over SFTP (the NAS area's real sync, a session from the
// platform's obtain call), the job runs the Python file, its printed lines appear in the terminal, and
// the Jobs view lists the job as succeeded.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { runFixture } from './runFixture';
import { PATIENCE_MS } from '../../helpers/eventually';
import { answerFlow, isPick } from '../nas/answerFlow';

async function until<T>(read: () => T | undefined, what: string, timeoutMs = PATIENCE_MS): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('jobs: Run on GPU', () => {
  let api: ExtensionApi;
  let runConfig: Record<string, unknown>;
  let storageId: number;
  let root: vscode.Uri;
  let directory: string;

  before(async function () {
    this.timeout(180_000);
    // The volume is named in run.json; only the outputs picker is quieted.
    ({ api, root, storageId, directory } = await runFixture());
    const config = {
      version: 1, name: 'fib', command: 'python3 fibonacci.py', image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', folder: '',
      resource: { deviceName: 'RTX 4090 x 1', region: 'beijing-jxq-p1' }, spot: true, estimatedSec: 60, timeoutSec: 600,
      completions: 1, parallelism: 1, indexed: false, retries: 0, env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
      volume: { storageId, targetDir: '/mnt/work', remoteDir: '/runs/fib' },
    };
    runConfig = config;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, '.compute'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, '.compute', 'run.json'), new TextEncoder().encode(JSON.stringify(config)));
  });

  /** Run Again, answered as a user would: the cost review's "Run (¥…/h)" made active, then Enter. */
  const runAgainChoosingRun = (): Promise<unknown> =>
    answerFlow(
      api,
      () => vscode.commands.executeCommand('computeToolkit.jobs.runAgain', vscode.Uri.joinPath(root, 'fibonacci.py')),
      (input) => {
        const run = isPick(input) ? input.items.find((item) => item.label.startsWith('Run (')) : undefined;
        if (run && isPick(input)) input.activeItems = [run];
      },
    );

  it('Run on GPU… is one titled 4-step flow that brings back the last billing mode (on-demand here), and its cost review opens on Cancel', async function () {
    this.timeout(180_000);
    const runJson = vscode.Uri.joinPath(root, '.compute', 'run.json');
    await vscode.workspace.fs.writeFile(runJson, new TextEncoder().encode(JSON.stringify({ ...runConfig, spot: false })));
    const before = api.jobs.terminalTexts().length;
    const seen: { step?: number; total?: number; title?: string; active?: string; labels: string[] }[] = [];
    try {
      await answerFlow(
        api,
        () => vscode.commands.executeCommand('computeToolkit.jobs.runOnGpu', vscode.Uri.joinPath(root, 'fibonacci.py')),
        (input) => {
          const key = `${input.step}/${input.title}`;
          if (!seen.some((entry) => `${entry.step}/${entry.title}` === key)) {
            seen.push({ step: input.step, total: input.totalSteps, title: input.title, active: isPick(input) ? input.activeItems[0]?.label : undefined, labels: isPick(input) ? input.items.map((item) => item.label) : [] });
          }
        },
      );
    } finally {
      await vscode.workspace.fs.writeFile(runJson, new TextEncoder().encode(JSON.stringify(runConfig)));
    }
    const steps = seen.filter((entry) => entry.title === 'Run on GPU');
    assert.deepEqual(steps.map((entry) => [entry.step, entry.total]), [[1, 4], [2, 4], [3, 4], [4, 4]], JSON.stringify(seen));
    assert.equal(steps[2]?.active, 'On-demand', `the billing step highlights the mode run.json remembers: ${JSON.stringify(steps[2])}`);
    const review = seen.find((entry) => entry.title?.startsWith('Run job '));
    assert.equal(review?.active, 'Cancel', `the cost review opens on Cancel: ${JSON.stringify(review)}`);
    assert.equal(api.jobs.terminalTexts().length, before, 'Enter at the review ran nothing');
  });

  it('Enter on the cost question does not run anything', async function () {
    this.timeout(180_000);
    const before = api.jobs.terminalTexts().length;
    const running = Promise.resolve(vscode.commands.executeCommand('computeToolkit.jobs.runAgain', vscode.Uri.joinPath(root, 'fibonacci.py')));
    let settled = false;
    void running.finally(() => (settled = true));
    for (const deadline = Date.now() + PATIENCE_MS; !settled && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    await running;
    assert.equal(api.jobs.terminalTexts().length, before, 'no terminal: no job was created');
  });

  it("offers only Active volumes of the GPU's region: run.json's volume is kept there and never offered elsewhere", async function () {
    this.timeout(60_000);
    assert.equal(await api.nas.runHooks.pickVolume('北京一区', storageId), storageId, 'the volume of the GPU region is kept without asking');
    assert.equal(await api.nas.runHooks.pickVolume('广东一区', storageId), undefined, 'a volume of 北京一区 does not mount in 广东一区');
  });

  it('Run Again runs the file on the sandbox GPU and streams its output into a terminal', async function () {
    this.timeout(180_000);
    // Only this folder's runs count: other suites' runs (another folder's run.json) have terminals too,
    // and a finished run's terminal takes the next run of its folder.
    const fibLines = (): string[] => api.jobs.terminalTexts().filter((lines) => lines.some((line) => line.includes(':/runs/fib'))).flat();
    const count = (pattern: RegExp): number => fibLines().filter((line) => pattern.test(line)).length;
    const syncing = /^Syncing .*:\/runs\/fib/;
    const ended = /Job \d+ (succeeded|failed)/;
    const [syncsBefore, endsBefore] = [count(syncing), count(ended)];
    await runAgainChoosingRun();
    assert.ok(count(syncing) > syncsBefore, 'choosing Run opened the run terminal');
    const transcript = await until(() => (count(ended) > endsBefore ? fibLines() : undefined), 'the run to end');
    assert.ok(transcript.includes('[0, 1, 1, 2, 3, 5, 8, 13, 21, 34]'), transcript.join('\n'));
    const synced = path.join(directory, 'runs', 'fib', 'fibonacci.py');
    assert.ok(existsSync(synced), `the SFTP sync put the file on the volume (${synced})`);
    const local = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, 'fibonacci.py'));
    assert.equal(readFileSync(synced, 'utf8'), new TextDecoder().decode(local), 'the volume holds the file as it is in the workspace');
    assert.ok(transcript.some((line) => /^Job \d+ succeeded · exit code 0 · /.test(line)), transcript.join('\n'));
    // The Jobs view follows the job store without a Refresh: the store polls while the job runs and the
    // view renders its end at the next poll after the terminal saw it (the terminal reads the job itself).
    let followed: ReturnType<typeof api.jobs.snapshot>[number] | undefined;
    for (const deadline = Date.now() + PATIENCE_MS; !followed && Date.now() < deadline;) {
      // The store's own poll, run when planned rather than after the platform's floor (not a Refresh).
      await api.money.runPlannedPoll();
      followed = api.jobs.snapshot().find((candidate) => candidate.label.startsWith('fib-') && candidate.description.startsWith('Succeeded'));
      if (!followed) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.ok(followed, 'the Jobs view to show the run succeeded (store-driven)');
    assert.match(followed.description, /^Succeeded · 1\/1 succeeded · /);
    await vscode.commands.executeCommand('computeToolkit.jobs.refresh');
    const row = api.jobs.snapshot().find((candidate) => candidate.label.startsWith('fib-'));
    assert.ok(row, JSON.stringify(api.jobs.snapshot()));
    assert.match(row.description, /^Succeeded · 1\/1 succeeded · /);
  });

  it('Run Again after a finished run writes into the same terminal, and the Explorer hears of the run folder', async function () {
    this.timeout(240_000);
    const terminals = api.jobs.terminalTexts().length;
    const announced: string[] = [];
    const listening = api.nas.fileSystem.onDidChangeFile((changes) => announced.push(...changes.map((change) => change.uri.path)));
    try {
      await runAgainChoosingRun();
      await until(() => (api.jobs.terminalTexts().some((lines) => lines.some((line) => line === '──── New run of fib ────')) ? true : undefined), "the second run to announce itself in the first run's terminal");
      const transcript = await until(() => api.jobs.terminalTexts().find((lines) => lines.filter((line) => /^Job \d+ succeeded/.test(line)).length >= 2), 'the second run to end in the same terminal');
      assert.ok(transcript.length > 0);
      assert.equal(api.jobs.terminalTexts().length, terminals, 'no new terminal for the second run');
      await until(() => (announced.some((path) => path === '/runs/fib/fibonacci.py') ? true : undefined), 'the Explorer to hear of the run folder');
    } finally {
      listening.dispose();
    }
  });

  after(() => {
    api.tests.restore('nasRunHooks');
  });
});
