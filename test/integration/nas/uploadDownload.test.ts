// Upload to Volume… and Download from Volume… in the real VS Code against the sandbox's SFTP server: the
// progress a notification tells, cancelling from it, the titled flows with Back, and the Explorer hearing of
// what was written.

import * as assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NasVolume } from '../../../src/core/nas/operations';
import type { NasApi } from '../../../src/vscode/nas/index';
import { extensionApi } from '../compute/computeTestApi';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { answerFlow, isPick, pressBack } from './answerFlow';
import { MIB, activeVolume, patternFile, sandboxPost, volumeDirectory } from './nasFixtures';

describe('nas: upload and download commands (sandbox SFTP)', function () {
  this.timeout(180_000);
  let nas: NasApi;
  let volume: NasVolume;
  let root: vscode.Uri;

  before(async () => {
    ({ nas, volume, root } = await activeVolume('itest-commands'));
  });

  it('Upload to Volume… tells the notification growing byte counts, a rate and the time left, ending at the file size', async function () {
    this.timeout(PATIENCE_MS * 2);
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-progress-'));
    const data = await patternFile(join(local, 'shard.bin'), 12 * MIB);
    // A 4 MiB/s link: the upload takes about three seconds, long enough for several reports.
    await sandboxPost('/__sandbox/nas/throttle', { bytesPerSecond: 4 * MIB });
    const from = nas.progressReports().length;
    let sent: { sent: number; bytes: number } | undefined;
    try {
      sent = await vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, { sources: [vscode.Uri.file(join(local, 'shard.bin'))], target: '/progress', policy: 'overwrite' });
    } finally {
      await sandboxPost('/__sandbox/nas/throttle', { bytesPerSecond: 0 });
    }
    assert.deepEqual({ sent: sent?.sent, bytes: sent?.bytes }, { sent: 1, bytes: data.length });
    const reports = nas.progressReports().slice(from).filter((r) => r.title === `Uploading to ${volume.name}`);
    const counts = reports.map((r) => r.bytes);
    assert.ok(new Set(counts.filter((n) => n > 0 && n < data.length)).size >= 3, `several counts between 0 and the size: ${JSON.stringify(counts)}`);
    for (let i = 1; i < counts.length; i++) assert.ok((counts[i] as number) >= (counts[i - 1] as number), `the byte count never goes back: ${JSON.stringify(counts)}`);
    assert.equal(counts[counts.length - 1], data.length, 'the last report is the whole file');
    assert.ok(reports.every((r) => r.totalBytes === data.length));
    assert.match(reports[reports.length - 1]?.message ?? '', /^12\.0 MiB \/ 12\.0 MiB/);
    assert.ok(reports.some((r) => / · [\d.]+ [KM]iB\/s · \d+ s left/.test(r.message)), `a report shows a rate and the time left: ${JSON.stringify(reports.map((r) => r.message))}`);
    assert.deepEqual(await readFile(join(await volumeDirectory(volume.storage_id), 'progress', 'shard.bin')), data);
  });

  it('cancelling an upload from its notification stops it, keeps the file it was replacing and leaves no partial file', async function () {
    this.timeout(PATIENCE_MS * 2);
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-cancel-'));
    const data = await patternFile(join(local, 'big.bin'), 16 * MIB);
    const target = vscode.Uri.joinPath(root, 'cancel', 'big.bin');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'cancel'));
    await vscode.workspace.fs.writeFile(target, Buffer.from('the copy already there'));
    await vscode.commands.executeCommand('notifications.clearAll');
    // A 1 MiB/s link: sixteen seconds unless cancelled.
    await sandboxPost('/__sandbox/nas/throttle', { bytesPerSecond: MIB });
    const from = nas.progressReports().length;
    const mine = () => nas.progressReports().slice(from).filter((r) => r.title === `Uploading to ${volume.name}`);
    let result: unknown = 'not settled';
    try {
      const upload = Promise.resolve(vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, { sources: [vscode.Uri.file(join(local, 'big.bin'))], target: '/cancel', policy: 'overwrite' }));
      await waitUntil('the upload to be under way', () => mine().some((r) => r.bytes > 0));
      // The notification's Cancel button (its primary action, as Ctrl+Shift+A presses it).
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      result = await upload;
    } finally {
      await sandboxPost('/__sandbox/nas/throttle', { bytesPerSecond: 0 });
    }
    assert.equal(result, undefined, 'a cancelled upload reports nothing sent');
    assert.match(nas.lastCancelledTransfer() ?? '', new RegExp(`^Upload to "${volume.name}" cancelled\\. 0 files sent before it stopped are kept on the volume; the file in flight was not written, and any file it would have replaced is unchanged\\.$`), 'the cancel is said, with what was kept');
    const reports = mine();
    assert.ok(reports.length > 0 && reports.every((r) => r.bytes < data.length), `it stopped before the end: ${JSON.stringify(reports.map((r) => r.bytes))}`);
    const onDisk = join(await volumeDirectory(volume.storage_id), 'cancel');
    assert.equal(await readFile(join(onDisk, 'big.bin'), 'utf8'), 'the copy already there', 'the file it was replacing is untouched');
    await waitUntil('the partial file to be removed', async () => (await readdir(onDisk)).length === 1);
    assert.deepEqual(await readdir(onDisk), ['big.bin']);
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(target)).toString(), 'the copy already there');
  });

  it('Upload to Volume… is a titled two-step flow with Back, and the Explorer hears of every file and folder it wrote', async function () {
    this.timeout(PATIENCE_MS * 3);
    const api = await extensionApi();
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-wizard-'));
    await mkdir(join(local, 'proj', 'src'), { recursive: true });
    await writeFile(join(local, 'proj', 'src', 'main.py'), 'print("wizard")\n');
    await writeFile(join(local, 'proj', 'README.md'), 'hi\n');
    const events: string[] = [];
    const listening = nas.fileSystem.onDidChangeFile((changes) => {
      for (const change of changes) events.push(`${change.type === vscode.FileChangeType.Created ? 'created' : change.type === vscode.FileChangeType.Changed ? 'changed' : 'deleted'} ${change.uri.path}`);
    });
    const seen: { step?: number; total?: number; title?: string; value?: string }[] = [];
    let wentBack = false;
    let backAt: string | undefined;
    try {
      const result = await answerFlow(
        api,
        () => vscode.commands.executeCommand<{ sent: number } | undefined>('computeToolkit.nas.upload', volume.storage_id, { sources: [vscode.Uri.file(join(local, 'proj'))] }),
        async (input) => {
          if (!seen.some((s) => s.step === input.step && s.title === input.title)) seen.push({ step: input.step, total: input.totalSteps, title: input.title });
          if (isPick(input)) {
            if (!wentBack) {
              wentBack = true;
              await pressBack(api, input);
              return;
            }
            const overwrite = input.items.find((item) => item.label === 'Overwrite existing files');
            if (overwrite && input.activeItems[0] !== overwrite) input.activeItems = [overwrite];
          } else {
            if (wentBack && backAt === undefined) backAt = input.value;
            if (input.value !== '/wizard') input.value = '/wizard';
          }
        },
      );
      assert.equal(result?.sent, 2);
    } finally {
      listening.dispose();
    }
    assert.deepEqual(seen.map((s) => [s.step, s.total]), [[1, 2], [2, 2]], `"1/2" then "2/2": ${JSON.stringify(seen)}`);
    assert.ok(seen.every((s) => s.title === `Upload to "${volume.name}"`), JSON.stringify(seen));
    assert.equal(backAt, '/wizard', 'Back shows the folder step again with its answer kept');
    assert.equal(await readFile(join(await volumeDirectory(volume.storage_id), 'wizard', 'proj', 'src', 'main.py'), 'utf8'), 'print("wizard")\n');
    for (const path of ['/wizard', '/wizard/proj', '/wizard/proj/src', '/wizard/proj/src/main.py', '/wizard/proj/README.md']) {
      assert.ok(events.includes(`created ${path}`), `the Explorer hears of ${path}: ${JSON.stringify(events)}`);
    }
  });

  it('Download from Volume… browses the volume (down, Back up, names escaped) and downloads the file picked', async function () {
    this.timeout(PATIENCE_MS * 3);
    const api = await extensionApi();
    const odd = '$(zap) odd\u202e.txt';
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'browse', 'inner'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'browse', odd), Buffer.from('odd name'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'browse', 'inner', 'deep.txt'), Buffer.from('deep'));
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-browse-'));
    const visited: { placeholder: string; labels: string[]; step?: number; total?: number; title?: string }[] = [];
    let phase: 'into-browse' | 'into-inner' | 'back' | 'pick' = 'into-browse';
    const result = await answerFlow(
      api,
      () => vscode.commands.executeCommand<{ sent: number } | undefined>('computeToolkit.nas.download', volume.storage_id, { destination: vscode.Uri.file(local) }),
      async (input) => {
        assert.ok(isPick(input), 'every step of a download is a pick');
        const items = input.items;
        const placeholder = input.placeholder ?? '';
        if (!visited.some((v) => v.placeholder === placeholder)) visited.push({ placeholder, labels: items.map((item) => item.label), step: input.step, total: input.totalSteps, title: input.title });
        const choose = (label: string) => {
          const item = items.find((candidate) => candidate.label === label);
          if (item && input.activeItems[0] !== item) input.activeItems = [item];
        };
        if (placeholder.startsWith('/browse/inner:')) {
          if (phase === 'into-inner') {
            phase = 'back';
            await pressBack(api, input);
          } else choose('$(arrow-up) ..'); // shown again: go up the other way
          return;
        }
        if (placeholder.startsWith('/browse:')) {
          if (phase === 'into-browse') phase = 'into-inner';
          if (phase === 'into-inner') choose('$(folder) inner');
          else choose(`$(file) \\$(zap) odd .txt`);
          if (phase === 'back') phase = 'pick';
          return;
        }
        if (placeholder.startsWith('/:')) choose('$(folder) browse');
        else choose('Overwrite existing files');
      },
    );
    assert.equal(result?.sent, 1);
    // Written under a safe local name (core/safeFileName.ts): the bidi override becomes "-", the rest stays.
    assert.equal(await readFile(join(local, '$(zap) odd-.txt'), 'utf8'), 'odd name');
    const browse = visited.find((v) => v.placeholder.startsWith('/browse:'));
    assert.ok(browse, JSON.stringify(visited));
    assert.ok(browse.labels.includes('$(file) \\$(zap) odd .txt'), `the name is shown escaped, its control character dropped: ${JSON.stringify(browse.labels)}`);
    assert.ok(browse.labels.includes('$(arrow-up) ..') && browse.labels[0] === '$(check) Download this folder', JSON.stringify(browse.labels));
    assert.ok(visited.some((v) => v.placeholder.startsWith('/browse/inner:')), 'went down into a folder');
    assert.ok(visited.every((v) => v.title === `Download from "${volume.name}"` && v.total === 2), JSON.stringify(visited));
  });

  // *Open Volume in Explorer* (updateWorkspaceFolders) cannot run in-host: VS Code refuses "entering a new
  // workspace" in extension tests. The file system it opens is the one exercised above; the browser check
  // "Open Volume in Explorer" (test/e2e/nasChecks.ts) opens it as a folder and takes the screenshot.
});
