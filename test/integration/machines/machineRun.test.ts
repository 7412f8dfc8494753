// Run on GPU with a rented machine as the target, inside a real VS Code against the sandbox's real SSH
// machine (docs/machines.md "Run on a machine"): the target picked among the profile's Serving machines,
// the command asked, a review that opens on Cancel and lists the machine, the folder, the command and the
// variables; the folder synced over SFTP, the command's lines in the run's terminal with its exit code
// and the rental's time left; run.json remembers the machine; Run Again sends nothing unchanged; a
// run.json naming a machine that is not the profile's is refused before anything is sent, and Restricted
// Mode refuses as for a GPU run.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { connectAsUser } from './connectAsUser';
import { rentUntilServing } from './rentMachine';

const DEVICE = 9078;
const FOLDER = 'machine-run-project';

describe('machines: Run on GPU on a rented machine', () => {
  let api: ExtensionApi;
  let root: vscode.Uri;
  let previousRunJson: Uint8Array | undefined;
  const runJson = () => vscode.Uri.joinPath(root, '.compute', 'run.json');
  const project = () => vscode.Uri.joinPath(root, FOLDER);
  /** The lines of this suite's run terminals (another suite's runs have terminals too). */
  const runLines = (): string[] => api.jobs.terminalTexts().filter((lines) => lines.some((line) => line.includes(`~/runs/${FOLDER}`))).flat();
  const count = (pattern: RegExp): number => runLines().filter((line) => pattern.test(line)).length;

  before(async function () {
    this.timeout(PATIENCE_MS * 3);
    await computeWithSandbox();
    api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration run opens a workspace folder');
    root = folder.uri;
    previousRunJson = await Promise.resolve(vscode.workspace.fs.readFile(runJson())).catch(() => undefined);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(project(), 'job.sh'), new TextEncoder().encode('echo "mark $RUN_MARK from $(basename "$PWD")"\ncat data/input.txt\nexit 5\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(project(), 'data', 'input.txt'), new TextEncoder().encode('input-line-42\n'));
    await rentUntilServing(api, DEVICE);
    // The key is installed once (Connect…, answered as a user would); the run then logs in by key.
    await connectAsUser(api, DEVICE);
  });

  after(async () => {
    api.surface.reportTrustForTests(undefined);
    if (previousRunJson) await vscode.workspace.fs.writeFile(runJson(), previousRunJson);
    else await Promise.resolve(vscode.workspace.fs.delete(runJson())).catch(() => undefined);
    await Promise.resolve(vscode.workspace.fs.delete(project(), { recursive: true })).catch(() => undefined);
  });

  it('picks the machine, reviews on Cancel first, syncs, runs with live lines, the exit code and the time left, and remembers the machine', async function () {
    this.timeout(PATIENCE_MS * 3);
    const seen: { title: string; active: string; labels: string[] }[] = [];
    const ends = count(/exit code/);
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.jobs.runOnGpu', project()), (input) => {
      if (isPick(input)) {
        seen.push({ title: input.title ?? '', active: input.activeItems[0]?.label ?? '', labels: input.items.map((item) => item.label) });
        const wanted = input.items.find((item) => item.label.startsWith(`Machine ${DEVICE} `) || item.label.startsWith('Sync and run on'));
        if (wanted) input.activeItems = [wanted];
      } else {
        input.value = 'RUN_MARK=m-$((6*7)) sh job.sh';
      }
    });
    const [where, review] = [seen[0], seen.find((entry) => entry.labels.some((label) => label.startsWith('Sync and run on')))];
    assert.equal(where?.title, 'Run on GPU');
    assert.equal(where?.active, 'Batch job', 'a batch job stays the first answer');
    assert.equal(review?.active, 'Cancel', `the review opens on Cancel: ${JSON.stringify(review)}`);
    for (const expected of [`Machine: Machine ${DEVICE} (8 × `, `Folder synced: ${vscode.workspace.asRelativePath(project(), true)} → ~/runs/${FOLDER} on the machine`, 'Command: RUN_MARK=m-$((6*7)) sh job.sh', 'Env PYTHONUNBUFFERED = "1"']) {
      assert.ok(review?.labels.some((label) => label.startsWith(expected)), `${expected} in ${review?.labels.join(' | ')}`);
    }
    await waitUntil('the run to end', () => count(/exit code/) > ends, { timeoutMs: PATIENCE_MS * 2 });
    const lines = runLines();
    assert.ok(lines.includes(`mark m-42 from ${FOLDER}`), lines.join('\n'));
    assert.ok(lines.includes('input-line-42'), lines.join('\n'));
    assert.ok(lines.some((line) => /Synced: 2 files sent/.test(line)), lines.join('\n'));
    assert.ok(lines.some((line) => new RegExp(`Machine ${DEVICE} .*: exit code 5 · .* left on the rental`).test(line)), lines.join('\n'));
    const saved = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(runJson()))) as Record<string, unknown>;
    assert.deepEqual([saved.target, saved.folder, saved.machine], ['machine', FOLDER, { deviceId: DEVICE, remoteDir: `runs/${FOLDER}` }]);
  });

  it('Run Again runs run.json on its machine and sends nothing unchanged', async function () {
    this.timeout(PATIENCE_MS * 3);
    const ends = count(/exit code/);
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.jobs.runAgain', root), (input) => {
      const go = isPick(input) ? input.items.find((item) => item.label.startsWith('Sync and run on')) : undefined;
      if (go && isPick(input)) input.activeItems = [go];
    });
    await waitUntil('the second run to end', () => count(/exit code/) > ends, { timeoutMs: PATIENCE_MS * 2 });
    assert.ok(runLines().some((line) => /Synced: 0 files sent \(0 B\), 2 unchanged/.test(line)), runLines().join('\n'));
  });

  it("refuses a run.json naming a machine that is not one of the profile's, and Restricted Mode, before anything is sent", async function () {
    this.timeout(PATIENCE_MS * 2);
    const saved = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(runJson()))) as Record<string, unknown>;
    await vscode.workspace.fs.writeFile(runJson(), new TextEncoder().encode(JSON.stringify({ ...saved, machine: { deviceId: 424242, remoteDir: 'runs/x' } })));
    const terminals = api.jobs.terminalTexts().length;
    const before = api.surface.refusals().length;
    await vscode.commands.executeCommand('computeToolkit.jobs.runAgain', root);
    assert.match(api.surface.refusals()[before]?.message ?? '', /Machine 424242 \(in \.compute\/run\.json\) is not a Serving machine of profile/);
    await vscode.workspace.fs.writeFile(runJson(), new TextEncoder().encode(JSON.stringify(saved)));
    api.surface.reportTrustForTests(false);
    await vscode.commands.executeCommand('computeToolkit.jobs.runAgain', root);
    api.surface.reportTrustForTests(undefined);
    assert.deepEqual(api.surface.refusals()[before + 1]?.actions, [vscode.l10n.t('Manage Workspace Trust')]);
    assert.equal(api.jobs.terminalTexts().length, terminals, 'no run terminal: nothing was sent');
  });
});
