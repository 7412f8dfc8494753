// Run Again on GPU from the Command Palette behaves like the notification's Run Again button: it runs
// what .compute/run.json says — its folder, command, image, env and volume, all listed in the
// confirmation before anything is synced — whatever file the active editor shows (here an unrelated
// notes.md at the workspace root, which must neither be synced nor run). In Restricted Mode it is
// refused with Manage Workspace Trust (trust reported through the test hook: this VS Code always
// trusts its folder).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { runFixture } from './runFixture';
import { waitUntil } from '../../helpers/eventually';

describe('jobs: Run Again on GPU from the Command Palette', () => {
  let api: ExtensionApi;
  let storageId: number;
  let root: vscode.Uri;
  let directory: string;
  let previousConfig: Uint8Array | undefined;
  const runJson = () => vscode.Uri.joinPath(root, '.compute', 'run.json');

  before(async function () {
    this.timeout(180_000);
    ({ api, root, storageId, directory } = await runFixture());
    previousConfig = await Promise.resolve(vscode.workspace.fs.readFile(runJson())).catch(() => undefined);
    const write = (relative: string, text: string) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, ...relative.split('/')), new TextEncoder().encode(text));
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'palette-run'));
    await write('palette-run/train.py', "print('palette run: the edited code v2')\n");
    await write('notes.md', '# notes, not code\n');
    await write(
      '.compute/run.json',
      JSON.stringify({
        version: 1, name: 'palette', command: 'python3 train.py', image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', folder: 'palette-run',
        resource: { deviceName: 'RTX 4090 x 1', region: 'beijing-jxq-p1' }, spot: true, estimatedSec: 60, timeoutSec: 600,
        completions: 1, parallelism: 1, indexed: false, retries: 0, env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
        volume: { storageId, targetDir: '/mnt/work', remoteDir: '/runs/palette' },
      }),
    );
  });

  after(async () => {
    api.surface.reportTrustForTests(undefined);
    api.tests.restore('nasRunHooks');
    if (previousConfig) await vscode.workspace.fs.writeFile(runJson(), previousConfig);
    else await vscode.workspace.fs.delete(runJson());
  });

  it('in Restricted Mode it is refused with Manage Workspace Trust, and nothing runs', async function () {
    this.timeout(180_000);
    api.surface.reportTrustForTests(false);
    const terminals = api.jobs.terminalTexts().length;
    const before = api.surface.refusals().length;
    await vscode.commands.executeCommand('computeToolkit.jobs.runAgain');
    const refusal = api.surface.refusals()[before];
    assert.ok(refusal, 'the refusal was shown');
    assert.ok(refusal.message.startsWith(vscode.l10n.t('{0} is not available in Restricted Mode: this folder is not trusted, and its files would decide what runs and what is sent. Trust the folder to continue; nothing was sent.', vscode.l10n.t('Run Again on GPU')).slice(0, 30)), refusal.message);
    assert.deepEqual(refusal.actions, [vscode.l10n.t('Manage Workspace Trust')]);
    assert.equal(api.jobs.terminalTexts().length, terminals, 'no run terminal: nothing was synced or created');
    api.surface.reportTrustForTests(undefined);
  });

  it("runs run.json's folder and command with notes.md in the active editor; the confirmation lists folder, command, image, env, volume and profile", async function () {
    this.timeout(180_000);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, 'notes.md')));
    const running = Promise.resolve(vscode.commands.executeCommand('computeToolkit.jobs.runAgain'));
    const pick = await waitUntil('the Run Again confirmation', () => api.surface.review());
    const rows = pick.items.map((item) => item.label);
    const folderShown = vscode.workspace.asRelativePath(vscode.Uri.joinPath(root, 'palette-run'), true);
    for (const expected of [
      vscode.l10n.t('Profile: {0}', api.services.profiles.active!.label),
      vscode.l10n.t('Folder synced: {0} → volume {1} folder {2}', folderShown, storageId, '/runs/palette'),
      vscode.l10n.t('Volume {0} mounted at {1}; the command runs in {2}', storageId, '/mnt/work', '/mnt/work/runs/palette'),
      vscode.l10n.t('Command: {0}', 'python3 train.py'),
      vscode.l10n.t('Image: {0}', 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime'),
      vscode.l10n.t('Env {0} = {1} (written in {2})', 'PYTHONUNBUFFERED', '"1"', '.compute/run.json'),
    ]) {
      assert.ok(rows.includes(expected), `the confirmation lacks "${expected}":\n${rows.join('\n')}`);
    }
    assert.ok(!rows.some((row) => row.includes('notes.md')), `the active editor's file is not the run:\n${rows.join('\n')}`);
    // Choose Run (the second answer; Cancel is first).
    pick.activeItems = [pick.items[1]!];
    await new Promise((resolve) => setTimeout(resolve, 100));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await running;
    const transcript = await waitUntil('the run to end', () => api.jobs.terminalTexts().find((lines) => lines.some((line) => /Job \d+ (succeeded|failed)/.test(line)) && lines.some((line) => line.includes('palette'))));
    assert.ok(transcript.includes('palette run: the edited code v2'), transcript.join('\n'));
    const remote = path.join(directory, 'runs', 'palette');
    assert.ok(existsSync(path.join(remote, 'train.py')), 'the folder of run.json was synced');
    assert.ok(!existsSync(path.join(remote, 'notes.md')) && !existsSync(path.join(remote, 'palette-run')), 'the workspace root was synced instead of the folder of run.json');
  });
});
