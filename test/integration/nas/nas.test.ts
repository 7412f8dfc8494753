// NAS in the real VS Code against the sandbox (whose obtain starts a real SFTP server on 127.0.0.1):
// create a volume through Create NAS Volume… (price shown before anything spends) and expand it, see it in the NAS view, write / read / rename / copy / delete files and edit one in place
// through vscode.workspace.fs (the computenas file system), upload a folder and download it back.

import * as assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, symlink, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NasVolume } from '../../../src/core/nas/operations';
import type { NasApi } from '../../../src/vscode/nas/index';
import { extensionApi } from '../compute/computeTestApi';
import { sandboxUrl } from '../sandboxInfo';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { answerFlow, isPick } from './answerFlow';
import { summaryRow, volumeRows } from './nasRows';

import { GIB, activeVolume, sandboxPost, volumeDirectory, waitFor } from './nasFixtures';

describe('nas: volumes as folders (sandbox SFTP)', function () {
  this.timeout(180_000);
  let nas: NasApi;
  let volume: NasVolume;
  let root: vscode.Uri;

  before(async () => {
    ({ nas, volume, root } = await activeVolume('itest'));
  });

  it('shows the volume in the NAS view with status, size, region and monthly price, and a summary row', async () => {
    const rows = await nas.tree.getChildren();
    assert.ok(summaryRow(rows), 'a summary row comes first');
    assert.equal(rows[0], summaryRow(rows), 'the summary row is the first');
    const row = volumeRows(rows).find((r) => r.item.storage_id === volume.storage_id);
    assert.ok(row);
    assert.match(String(row.description), /Active · 0 \/ 1 GiB · 北京一区 · ¥0\.36\/month/);
    assert.equal(nas.stores.volumesPolling, volumeRows(rows).some((r) => ['Creating', 'Expanding', 'Deleting'].includes(r.item.status)), 'polls only while something changes');
  });

  it('reads, writes, renames, copies and deletes files through vscode.workspace.fs, with FileSystemError codes', async () => {
    const file = vscode.Uri.joinPath(root, 'notes', 'a.txt');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'notes'));
    await vscode.workspace.fs.writeFile(file, Buffer.from('hello volume'));
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file)).toString(), 'hello volume');
    const listing = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, 'notes'));
    assert.deepEqual(listing, [['a.txt', vscode.FileType.File]]);
    const stat = await vscode.workspace.fs.stat(file);
    assert.equal(stat.size, 12);
    const renamed = vscode.Uri.joinPath(root, 'notes', 'b.txt');
    await vscode.workspace.fs.rename(file, renamed);
    await vscode.workspace.fs.copy(renamed, file);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(file, renamed)), (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'FileExists');
    await vscode.workspace.fs.delete(renamed);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(renamed)), (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'FileNotFound');
    const onDisk = await volumeDirectory(volume.storage_id);
    assert.equal(await readFile(join(onDisk, 'notes', 'a.txt'), 'utf8'), 'hello volume');
  });

  it('the Explorer leaves out names that are not one path segment, shows links as links, and deletes and copies links as links', async () => {
    const onDisk = await volumeDirectory(volume.storage_id);
    await mkdir(join(onDisk, 'links', 'victim'), { recursive: true });
    await writeFile(join(onDisk, 'links', 'victim', 'keep.txt'), 'keep');
    await mkdir(join(onDisk, 'links', 'dir'), { recursive: true });
    await writeFile(join(onDisk, 'links', 'dir', 'own.txt'), 'mine');
    await symlink('../victim', join(onDisk, 'links', 'dir', 'up'));
    await symlink('.', join(onDisk, 'links', 'dir', 'self'));
    await sandboxPost('/__sandbox/nas/hostile', { storage_id: volume.storage_id, folder: '/links/dir', names: ['../../x', 'a/b', 'nul\u0000', 'esc\u001b]52;c;aGk=\u0007', 'c1\u009b2J'] });
    try {
      const dir = vscode.Uri.joinPath(root, 'links', 'dir');
      const listing = await vscode.workspace.fs.readDirectory(dir);
      assert.deepEqual(
        [...listing].sort(([a], [b]) => (a < b ? -1 : 1)),
        [
          ['own.txt', vscode.FileType.File],
          ['self', vscode.FileType.SymbolicLink],
          ['up', vscode.FileType.SymbolicLink],
        ],
      );
      assert.equal((await vscode.workspace.fs.stat(vscode.Uri.joinPath(dir, 'up'))).type, vscode.FileType.SymbolicLink | vscode.FileType.Directory);
      // The lying server stops here: a delete of a folder holding names it cannot use would change nothing.
      await fetch(`${sandboxUrl()}/__sandbox/nas/hostile`, { method: 'DELETE' });
      const copy = vscode.Uri.joinPath(root, 'links', 'copy');
      await vscode.workspace.fs.copy(dir, copy);
      const copied = await readdir(join(onDisk, 'links', 'copy'), { withFileTypes: true });
      assert.deepEqual(copied.map((entry) => `${entry.name}:${entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : 'file'}`).sort(), ['own.txt:file', 'self:link', 'up:link'], 'links copied as links, not descended');
      await vscode.workspace.fs.delete(dir, { recursive: true });
      await vscode.workspace.fs.delete(copy, { recursive: true });
    } finally {
      await fetch(`${sandboxUrl()}/__sandbox/nas/hostile`, { method: 'DELETE' });
    }
    assert.deepEqual(await readdir(join(onDisk, 'links')), ['victim']);
    assert.equal(await readFile(join(onDisk, 'links', 'victim', 'keep.txt'), 'utf8'), 'keep', 'deleting dir/ left the folder its link points to as it was');
  });

  it('edits and saves a file in place in an editor', async () => {
    const uri = vscode.Uri.joinPath(root, 'edit.py');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('x = 1\n'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(1, 0), 'y = 2\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // On a loaded machine VS Code may refuse a save (it gives the extension host's onWillSaveTextDocument
    // listeners 1.75 s of its own clock): the save is asked again until the document is clean.
    await waitUntil('the editor to save the file', async () => (await document.save()) || !document.isDirty, { everyMs: 500 });
    assert.equal(await readFile(join(await volumeDirectory(volume.storage_id), 'edit.py'), 'utf8'), 'x = 1\ny = 2\n');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('uploads a folder and downloads it back (commands with progress)', async () => {
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-'));
    await mkdir(join(local, 'proj', 'src'), { recursive: true });
    await writeFile(join(local, 'proj', 'src', 'main.py'), 'print("gpu")\n');
    await writeFile(join(local, 'proj', 'data.bin'), Buffer.alloc(256 * 1024, 7));
    const sent = (await vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, {
      sources: [vscode.Uri.file(join(local, 'proj'))],
      target: '/',
      policy: 'overwrite',
    })) as { sent: number; bytes: number };
    assert.deepEqual({ sent: sent.sent, bytes: sent.bytes }, { sent: 2, bytes: 256 * 1024 + 13 });
    const again = (await vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, {
      sources: [vscode.Uri.file(join(local, 'proj'))],
      target: '/',
      policy: 'skip',
    })) as { sent: number; skipped: number };
    assert.deepEqual({ sent: again.sent, skipped: again.skipped }, { sent: 0, skipped: 2 });

    const back = vscode.Uri.file(join(local, 'back'));
    const got = (await vscode.commands.executeCommand('computeToolkit.nas.download', volume.storage_id, { remote: '/proj', destination: back, policy: 'overwrite' })) as { sent: number };
    assert.equal(got.sent, 2);
    assert.equal(await readFile(join(local, 'back', 'proj', 'src', 'main.py'), 'utf8'), 'print("gpu")\n');
    assert.deepEqual((await readdir(join(local, 'back', 'proj'))).sort(), ['data.bin', 'src']);
  });

  it('an upload carries on when the SFTP session expires in the middle, and no password reaches the log', async () => {
    const client = (await extensionApi()).services.computeClient();
    // obtain is idempotent: it answers the session the extension holds (or opens the one it will use).
    const obtain = () => waitFor(() => client.call('nas.sftpObtain', { storage_id: volume.storage_id }), (info) => Boolean(info?.password), 'SFTP credentials');
    const first = await obtain();
    const local = await mkdtemp(join(tmpdir(), 'nas-itest-expire-'));
    const data = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(join(local, 'weights.bin'), data);
    const renewalsBefore = nas.sessions().renewals;
    const injected = await fetch(`${sandboxUrl()}/__sandbox/nas/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'expire', storage_id: volume.storage_id, afterBytes: 1024 * 1024 }),
    });
    assert.equal(injected.status, 201);
    const sent = (await vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, {
      sources: [vscode.Uri.file(join(local, 'weights.bin'))],
      target: '/expiring',
      policy: 'overwrite',
    })) as { sent: number; bytes: number } | undefined;
    assert.deepEqual({ sent: sent?.sent, bytes: sent?.bytes }, { sent: 1, bytes: data.length }, 'the upload finished after the expiry');
    assert.ok(nas.sessions().renewals > renewalsBefore, 'the session was renewed in the middle of the upload');
    assert.deepEqual(await readFile(join(await volumeDirectory(volume.storage_id), 'expiring', 'weights.bin')), data, 'the volume holds the whole file');
    const second = await obtain();
    assert.ok(first?.password && second?.password && first.password !== second.password, 'the renewal brought new credentials');
    const log = (await extensionApi()).surface.logText();
    for (const password of [first.password, second.password]) assert.ok(!log.includes(password), 'no SFTP password in the log');
  });

  it('Create NAS Volume… names the monthly price from pre-create before anything spends; Cancel creates nothing, Create shows Creating then Active without Refresh', async function () {
    this.timeout(PATIENCE_MS * 4);
    const api = await extensionApi();
    const client = api.services.computeClient();
    const { configs } = await client.call('nas.preCreate', {});
    // The sandbox's 102 is 北京一区 · 性能型 at ¥0.90/GB/month: 7 GiB cost ¥6.30 a month.
    const config = configs.find((c) => c.id === 102 && c.status === 'Available');
    assert.ok(config, 'pre-create offers config 102');
    const expectedPrice = `¥${(7 * Number(config.display_unit_price)).toFixed(2)}/month`;
    assert.equal(expectedPrice, '¥6.30/month');
    const volumeCount = async () => (await client.call('nas.list', { page: 1, page_size: 100 })).count;

    /** Answers the four steps; at the review, records what it says and picks Create, or presses Enter on what it highlights. */
    const run = (name: string, decide: 'create' | 'enter') => {
      const seen: { steps: number[]; configLabels: string[]; review: { label: string; detail?: string }[]; reviewActive?: string } = { steps: [], configLabels: [], review: [] };
      const flow = answerFlow(
        api,
        () => vscode.commands.executeCommand<number | undefined>('computeToolkit.nas.create'),
        (input) => {
          if (input.step !== undefined && !seen.steps.includes(input.step)) seen.steps.push(input.step);
          if (isPick(input)) {
            const items = input.items as (vscode.QuickPickItem & { choice?: { config: { id: number } }; go?: boolean })[];
            if (items.some((item) => item.choice)) {
              seen.configLabels = items.map((item) => `${item.label} ${item.description ?? ''}`);
              const wanted = items.find((item) => item.choice?.config.id === config.id);
              if (wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
            } else {
              if (seen.review.length === 0) seen.reviewActive = input.activeItems[0]?.label;
              seen.review = items.map((item) => ({ label: item.label, ...(item.detail !== undefined ? { detail: item.detail } : {}) }));
              const wanted = items.find((item) => item.go === true);
              if (decide === 'create' && wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
            }
          } else if (/name/i.test(input.prompt ?? '')) {
            input.value = name;
          } else {
            input.value = '7';
          }
        },
      );
      return flow.then((result) => ({ result, seen }));
    };

    const before = await volumeCount();
    const cancelled = await run('itest-cancel', 'enter');
    assert.equal(cancelled.result, undefined, 'Enter at the review (Cancel highlighted) creates nothing');
    assert.equal(cancelled.seen.reviewActive, 'Cancel', 'the review opens on Cancel: the safe answer is the default where money is spent');
    assert.deepEqual(cancelled.seen.steps, [1, 2, 3, 4]);
    assert.ok(cancelled.seen.configLabels.some((label) => label.includes(config.region.name) && label.includes(`¥${config.display_unit_price}/GB/month`)), `the region step offers pre-create's configs: ${JSON.stringify(cancelled.seen.configLabels)}`);
    assert.equal(cancelled.seen.review.length, 2);
    assert.equal(cancelled.seen.review[0]?.label, 'Cancel');
    assert.match(cancelled.seen.review[1]?.label ?? '', /"itest-cancel" \(7 GiB, 北京一区/);
    assert.ok(cancelled.seen.review[1]?.detail?.includes(expectedPrice), `the review names ${expectedPrice}: ${JSON.stringify(cancelled.seen.review)}`);
    assert.equal(await volumeCount(), before, 'no volume was created');

    // Create: watch the store the NAS view reads (never refreshing it) from before the command.
    let createdId: number | undefined;
    // Every volume's statuses, recorded on each change the store tells the view (not sampled on a timer,
    // which a busy machine delays past a change; from before the command returns its id), and at each
    // look of the wait below.
    const history = new Map<number, string[]>();
    const pollingWhileCreating = new Set<number>();
    const record = () => {
      for (const v of nas.stores.listed ?? []) {
        const seen = history.get(v.storage_id) ?? [];
        if (seen[seen.length - 1] !== v.status) history.set(v.storage_id, [...seen, v.status]);
        if (v.status === 'Creating' && nas.stores.volumesPolling) pollingWhileCreating.add(v.storage_id);
      }
    };
    record();
    const watch = nas.tree.onDidChangeTreeData(record);
    try {
      const created = await run('itest-made', 'create');
      createdId = created.result;
      assert.ok(typeof createdId === 'number', 'Create returns the new volume');
      record();
      assert.ok(created.seen.review[1]?.detail?.includes(expectedPrice));
      assert.equal(await volumeCount(), before + 1);
      const row = volumeRows(await nas.tree.getChildren()).find((r) => r.item.storage_id === createdId);
      assert.match(String(row?.description), /^Creating · \? \/ 7 GiB · 北京一区 · ¥6\.30\/month/, 'the view shows the new volume Creating at once');
      // The store's own polls (no Refresh), each run when planned rather than after the platform's floor.
      await waitUntil('the view to show it Active without Refresh', async () => {
        await api.money.runPlannedPoll();
        const rows = await nas.tree.getChildren();
        record();
        return volumeRows(rows).some((r) => r.item.storage_id === createdId && /^Active · 0 \/ 7 GiB/.test(String(r.description)));
      }, { timeoutMs: PATIENCE_MS * 2, everyMs: 250 });
    } finally {
      watch.dispose();
    }
    assert.deepEqual(history.get(createdId as number), ['Creating', 'Active']);
    assert.ok(pollingWhileCreating.has(createdId as number), 'the store polled on its own while the volume was Creating');
    const made = (await client.call('nas.list', { page: 1, page_size: 100, storage_ids: String(createdId) })).results[0];
    assert.deepEqual({ name: made?.name, total: made?.total_size, storageClass: made?.storage_class_name }, { name: 'itest-made', total: 7 * GIB, storageClass: config.storage_class_name });

    // Expand… the same way: the price change is named before anything spends.
    const review: { label: string; detail?: string }[] = [];
    const expanded = await answerFlow(
      api,
      () => vscode.commands.executeCommand<boolean>('computeToolkit.nas.expand', createdId),
      (input) => {
        if (isPick(input)) {
          review.splice(0, review.length, ...input.items.map((item) => ({ label: item.label, ...(item.detail !== undefined ? { detail: item.detail } : {}) })));
          const go = (input.items as (vscode.QuickPickItem & { go?: boolean })[]).find((item) => item.go);
          if (go && input.activeItems[0] !== go) input.activeItems = [go];
        } else {
          input.value = '8';
        }
      },
    );
    assert.equal(expanded, true);
    assert.equal(review[0]?.label, 'Cancel', 'the expand review lists Cancel first');
    assert.match(review[1]?.label ?? '', /Expand "itest-made" from 7 to 8 GiB/);
    assert.equal(review[1]?.detail, 'Price per month: ¥6.30 → ¥7.20.');
    await waitUntil('the view to show it Active at 8 GiB without Refresh', async () => {
      await api.money.runPlannedPoll();
      const rows = await nas.tree.getChildren();
      return volumeRows(rows).some((r) => r.item.storage_id === createdId && /^Active · 0 \/ 8 GiB · 北京一区 · ¥7\.20\/month/.test(String(r.description)));
    }, { timeoutMs: PATIENCE_MS * 2, everyMs: 250 });
    await client.call('nas.delete', { id: createdId as number });
  });
});
