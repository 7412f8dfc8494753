// Run on GPU's target switched and remembered in .compute/run.json, inside a real VS Code against two
// sandbox machines (real SSH servers) and the sandbox's batch jobs (docs/machines.md "Run on a machine"):
// a job run.json, then machine A picked (the job's settings kept beside it), then machine B (the pick opens
// on A, the last command comes back), Run Again runs on run.json's machine B without asking, then a batch job
// picked again (the kept job settings answer its steps; machine B kept beside them), and back to a machine
// with B's command. Every wait is for the event itself (the run's exit line, the file) with a generous deadline.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { runFixture } from '../jobs/runFixture';
import { answerFlow, isPick, type StepInput } from '../nas/answerFlow';
import { connectAsUser } from './connectAsUser';
import { metalControl } from './metalControl';

// Device ids no other suite uses.
const [A, B] = [9371, 9372];
const FOLDER = 'run-target-project';
const SCRIPT = 'echo "ran $RUN_MARK in $(basename "$PWD")"\n';

describe('machines: Run on GPU switching its target, remembered in run.json', () => {
  let api: ExtensionApi;
  let root: vscode.Uri;
  let storageId: number;
  let previousRunJson: Uint8Array | undefined;
  const runJson = () => vscode.Uri.joinPath(root, '.compute', 'run.json');
  const project = () => vscode.Uri.joinPath(root, FOLDER);
  const saved = async (): Promise<Record<string, unknown>> => JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(runJson()))) as Record<string, unknown>;
  /** This suite's run terminals' lines (the machine runs name `~/runs/<folder>`, the job runs `:/runs/<folder>`). */
  const runLines = (): string[] => api.jobs.terminalTexts().filter((lines) => lines.some((line) => line.includes(`/runs/${FOLDER}`))).flat();
  const count = (pattern: RegExp): number => runLines().filter((line) => pattern.test(line)).length;
  const machineEnded = (device: number) => new RegExp(`Machine ${device} .*: exit code 0 · `);
  const waitForLine = async (what: string, pattern: RegExp, before: number): Promise<void> => {
    await waitUntil(what, () => count(pattern) > before, { timeoutMs: PATIENCE_MS * 2 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${runLines().join('\n')}`);
    });
  };

  /** Run on GPU on the project, answered as a user: `where` picks the target, `command` is typed, the review's go made active. */
  async function runOnGpu(where: (input: vscode.QuickPick<vscode.QuickPickItem>) => vscode.QuickPickItem | undefined, command?: string): Promise<{ title: string; active: string; value: string }[]> {
    const seen: { title: string; active: string; value: string }[] = [];
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.jobs.runOnGpu', project()), (input: StepInput) => {
      if (!isPick(input)) {
        seen.push({ title: input.title ?? '', active: '', value: input.value });
        if (command !== undefined && input.title?.startsWith('Run on Machine')) input.value = command;
        return;
      }
      seen.push({ title: input.title ?? '', active: input.activeItems[0]?.label ?? '', value: '' });
      const wanted = where(input) ?? input.items.find((item) => item.label.startsWith('Sync and run on') || item.label.startsWith('Run ('));
      if (wanted) input.activeItems = [wanted];
    });
    return seen;
  }
  const machineItem = (device: number) => (input: vscode.QuickPick<vscode.QuickPickItem>) => (input.title === 'Run on GPU' ? input.items.find((item) => item.label.startsWith(`Machine ${device} `)) : undefined);

  before(async function () {
    this.timeout(PATIENCE_MS * 4);
    ({ api, root, storageId } = await runFixture());
    previousRunJson = await Promise.resolve(vscode.workspace.fs.readFile(runJson())).catch(() => undefined);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(project(), 'job.sh'), new TextEncoder().encode(SCRIPT));
    const service = new MachineService(api.surface.createComputeClient({}));
    for (const device of [A, B]) await metalControl('product', { device_id: device });
    const products = (await service.singles('Hour')).filter((item) => item.device_id === A || item.device_id === B);
    assert.equal(products.length, 2);
    for (const product of products) await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    for (const device of [A, B]) await service.waitForServing(device, { pollMs: 50, timeoutMs: PATIENCE_MS });
    await api.machines.refresh();
    for (const device of [A, B]) await connectAsUser(api, device);
    // The last run was a batch job of this folder.
    const job = {
      version: 1, name: FOLDER, command: 'RUN_MARK=job sh job.sh', image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', folder: FOLDER,
      resource: { deviceName: 'RTX 4090 x 1', region: 'beijing-jxq-p1' }, spot: true, estimatedSec: 60, timeoutSec: 600,
      completions: 1, parallelism: 1, indexed: false, retries: 0, env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
      volume: { storageId, targetDir: '/mnt/work', remoteDir: `/runs/${FOLDER}` },
    };
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, '.compute'));
    await vscode.workspace.fs.writeFile(runJson(), new TextEncoder().encode(JSON.stringify(job)));
  });

  after(async () => {
    if (previousRunJson) await vscode.workspace.fs.writeFile(runJson(), previousRunJson);
    else await Promise.resolve(vscode.workspace.fs.delete(runJson())).catch(() => undefined);
    await Promise.resolve(vscode.workspace.fs.delete(project(), { recursive: true })).catch(() => undefined);
  });

  it('job → machine A: the pick opens on Batch job, the run goes to A, run.json names A and keeps the job settings', async function () {
    this.timeout(PATIENCE_MS * 4);
    const ends = count(machineEnded(A));
    const seen = await runOnGpu(machineItem(A), 'RUN_MARK=on-a sh job.sh');
    assert.equal(seen[0]?.title, 'Run on GPU');
    assert.equal(seen[0]?.active, 'Batch job', JSON.stringify(seen));
    await waitForLine('the run on A to end', machineEnded(A), ends);
    assert.ok(runLines().includes(`ran on-a in ${FOLDER}`), runLines().join('\n'));
    const file = await saved();
    assert.deepEqual([file.target, file.command, file.machine], ['machine', 'RUN_MARK=on-a sh job.sh', { deviceId: A, remoteDir: `runs/${FOLDER}` }]);
    const kept = file.otherTarget as Record<string, unknown> | undefined;
    assert.deepEqual([kept?.command, (kept?.resource as Record<string, unknown> | undefined)?.deviceName], ['RUN_MARK=job sh job.sh', 'RTX 4090 x 1'], 'the job settings are kept beside the machine');
  });

  it('machine A → machine B: the pick opens on A, the last command comes back, the run goes to B and run.json names B', async function () {
    this.timeout(PATIENCE_MS * 4);
    const [endsA, endsB] = [count(machineEnded(A)), count(machineEnded(B))];
    const seen = await runOnGpu(machineItem(B), 'RUN_MARK=on-b sh job.sh');
    assert.ok(seen[0]?.active.startsWith(`Machine ${A} `), `the remembered machine is the first answer: ${JSON.stringify(seen[0])}`);
    assert.equal(seen.find((entry) => entry.title.startsWith('Run on Machine'))?.value, 'RUN_MARK=on-a sh job.sh', 'the last command is proposed');
    await waitForLine('the run on B to end', machineEnded(B), endsB);
    assert.equal(count(machineEnded(A)), endsA, 'nothing ran on A');
    assert.ok(runLines().includes(`ran on-b in ${FOLDER}`), runLines().join('\n'));
    const file = await saved();
    assert.deepEqual([file.target, file.machine], ['machine', { deviceId: B, remoteDir: `runs/${FOLDER}` }]);
    assert.equal((file.otherTarget as Record<string, unknown> | undefined)?.command, 'RUN_MARK=job sh job.sh', 'the job settings are still kept');
  });

  it('Run Again runs on the machine run.json names (B), without asking where', async function () {
    this.timeout(PATIENCE_MS * 4);
    const [endsA, endsB] = [count(machineEnded(A)), count(machineEnded(B))];
    const titles: string[] = [];
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.jobs.runAgain', root), (input) => {
      titles.push(input.title ?? '');
      const go = isPick(input) ? input.items.find((item) => item.label.startsWith('Sync and run on')) : undefined;
      if (go && isPick(input)) input.activeItems = [go];
    });
    await waitForLine('the run again on B to end', machineEnded(B), endsB);
    assert.equal(count(machineEnded(A)), endsA, 'nothing ran on A');
    assert.ok(!titles.includes('Run on GPU'), `no target pick: ${titles.join(' | ')}`);
  });

  it('machine B → batch job: the kept job settings answer its steps, the job runs, run.json is a job again with B kept; back to a machine brings B’s command', async function () {
    this.timeout(PATIENCE_MS * 6);
    const jobEnded = /Job \d+ (succeeded|failed)/;
    const ends = count(jobEnded);
    const seen = await runOnGpu((input) => (input.title === 'Run on GPU' && input.step === undefined ? input.items.find((item) => item.label === 'Batch job') : undefined));
    assert.ok(seen[0]?.active.startsWith(`Machine ${B} `), JSON.stringify(seen[0]));
    assert.equal(seen.find((entry) => entry.title === 'Run on GPU' && entry.value !== '')?.value, 'RUN_MARK=job sh job.sh', `the job's command comes back: ${JSON.stringify(seen)}`);
    await waitForLine('the job to end', jobEnded, ends);
    assert.ok(runLines().includes(`ran job in ${FOLDER}`), runLines().join('\n'));
    const file = await saved();
    assert.equal(file.target ?? 'job', 'job');
    assert.deepEqual([file.command, file.folder, (file.volume as Record<string, unknown>).storageId], ['RUN_MARK=job sh job.sh', FOLDER, storageId]);
    const kept = file.otherTarget as Record<string, unknown> | undefined;
    assert.deepEqual([kept?.target, kept?.command, kept?.machine], ['machine', 'RUN_MARK=on-b sh job.sh', { deviceId: B, remoteDir: `runs/${FOLDER}` }], 'machine B is kept beside the job');

    // Back to a machine: B's command is proposed again (the run is cancelled at the review: nothing more to prove).
    const again: { title: string; value: string }[] = [];
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.jobs.runOnGpu', project()), (input) => {
      again.push({ title: input.title ?? '', value: isPick(input) ? '' : input.value });
      if (isPick(input) && input.title === 'Run on GPU') {
        const b = input.items.find((item) => item.label.startsWith(`Machine ${B} `));
        if (b) input.activeItems = [b];
      }
    });
    assert.equal(again.find((entry) => entry.title.startsWith('Run on Machine'))?.value, 'RUN_MARK=on-b sh job.sh', JSON.stringify(again));
    assert.equal((await saved()).target ?? 'job', 'job', 'cancelled at the review: run.json is unchanged');
  });
});
