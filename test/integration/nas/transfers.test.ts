// S3 ↔ NAS transfers in the real VS Code against the sandbox: the NAS view's Transfers group with the
// progress the platform reports, Create Transfer… (RSA-mode only, the connection checked first, the secret
// key from a password input and nowhere else), Stop and Delete (confirmed; declining keeps the job),
// Retry of a failed job; the create wizard's optional mount step; Mount NAS Volume… in a task update.
// Create and Retry are multi-step flows answered in-host as a user would (answerFlow: step by step,
// Back included); Stop and Delete's modal questions are answered by a script (TransferAsker).

import * as assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NasApi } from '../../../src/vscode/nas/index';
import type { ExtensionApi } from '../../../src/vscode/api';
import { extensionApi } from '../extensionApi';
import { sandboxUrl } from '../sandboxInfo';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { answerFlow, isPick, messageText } from './answerFlow';
import { ScriptedAsker, driveTransfer, type Bucket, type CreateAnswers } from './transferFlow';
import { transfersGroup, type TransferRow } from './nasRows';

/** Holds S3 transfers in Running at half their bytes (true) or lets them go on (false): test/sandbox/control.ts. */
async function holdTransfers(held: boolean): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/nas/transfers/hold`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ held }) });
  assert.equal(response.status, 200, await response.text());
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (const deadline = Date.now() + PATIENCE_MS; Date.now() < deadline;) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last)?.slice(0, 400)}`);
}

describe('nas: S3 transfers, mounts in tasks (sandbox)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let nas: NasApi;
  let bucket: Bucket;
  let profiles: { rsa: { id: string }; token: { id: string } };
  let storageId: number;

  const answers = (): CreateAnswers => ({
    direction: 'Object storage →',
    supplier: bucket.supplier,
    endpoint: bucket.endpoint,
    bucket: bucket.bucket,
    prefix: 'datasets/',
    nasPath: '/from-s3',
    name: 'itest-in',
    accessKey: bucket.accessKey,
    secretKey: bucket.secretKey,
  });
  /** Create Transfer's fields by step number. */
  const createFields = (given: CreateAnswers) => (step: number): string | undefined =>
    ({ 1: given.direction, 2: given.supplier, 3: given.endpoint, 4: given.bucket, 5: given.prefix, 6: given.nasPath, 9: given.name, 10: given.accessKey, 11: given.secretKey })[step];
  const create = (given: CreateAnswers, decide: 'go' | 'cancel' | 'enter', back = false) => driveTransfer(api, () => nas.transfers.create(storageId), createFields(given), decide, back);
  const retryFields = (given: { accessKey: string; secretKey: string }) => (step: number): string | undefined => (step === 1 ? given.accessKey : step === 2 ? given.secretKey : undefined);

  /** The Transfers group's rows, read afresh (as the 10 s poll would). */
  async function transferRows(): Promise<TransferRow[]> {
    await nas.stores.reload();
    const group = transfersGroup(await nas.tree.getChildren());
    assert.ok(group, 'the NAS view has a Transfers group');
    return (await nas.tree.getChildren(group)) as TransferRow[];
  }
  const rowOf = async (id: number) => (await transferRows()).find((row) => row.item?.id === id);

  before(async () => {
    api = await extensionApi();
    nas = api.nas;
    profiles = await api.surface.connectSandbox(sandboxUrl());
    await api.surface.profiles.setActive(profiles.rsa.id);
    bucket = (await (await fetch(`${sandboxUrl()}/__sandbox/nas/bucket`)).json()) as Bucket;
    nas.stores.wake();
    const volume = (await nas.stores.volumes()).find((v) => v.status === 'Active' && v.region.name === '北京一区');
    assert.ok(volume, 'the sandbox has an Active volume in 北京一区');
    storageId = volume.storage_id;
  });

  after(async () => {
    await api.surface.profiles.setActive(profiles.token.id);
  });

  it('a token-mode profile is refused before anything is asked, naming RSA mode', async () => {
    await api.surface.profiles.setActive(profiles.token.id);
    try {
      const { result, seen } = await create(answers(), 'go');
      assert.equal(result, undefined);
      assert.deepEqual(seen.steps, [], 'no question before the refusal');
      assert.match(nas.transfers.lastRsaRefusal() ?? '', /RSA-mode profile[\s\S]*"Sandbox \(token\)"[\s\S]*token-mode/);
    } finally {
      await api.surface.profiles.setActive(profiles.rsa.id);
    }
  });

  it('a failed connection check creates nothing and its error carries no key', async () => {
    const before = (await transferRows()).filter((row) => row.item).length;
    const wrong = 'wrong-secret-for-itest';
    await assert.rejects(create({ ...answers(), secretKey: wrong }, 'go'), (error: unknown) => {
      const text = String(error);
      assert.match(text, /connection check failed/);
      assert.ok(!text.includes(wrong) && !text.includes(bucket.accessKey));
      return true;
    });
    assert.equal((await transferRows()).filter((row) => row.item).length, before);
  });

  it('Create Transfer… is one titled 12-step flow with Back; Enter at its review (Cancel highlighted) creates nothing', async function () {
    this.timeout(PATIENCE_MS * 3);
    const before = (await transferRows()).filter((row) => row.item).length;
    const { result, seen } = await create(answers(), 'enter', true);
    assert.equal(result, undefined, 'Enter at the review is Cancel');
    assert.equal((await transferRows()).filter((row) => row.item).length, before, 'nothing was created');
    assert.deepEqual([...seen.steps].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 'every step shows its number');
    assert.ok(seen.totals.every((total) => total === 12), `"n/12" on every step: ${JSON.stringify(seen.totals)}`);
    assert.ok(seen.titles.every((title) => /^Create S3 Transfer on ".+"$/.test(title)), `a title on every step: ${JSON.stringify(seen.titles)}`);
    assert.equal(seen.backTo, bucket.endpoint, 'Back from the bucket step shows the endpoint step again with its answer kept');
    assert.equal(seen.reviewActive, 'Cancel', 'the review opens on Cancel');
    assert.equal(seen.review[0]?.label, 'Cancel');
    assert.match(seen.review[1]?.label ?? '', /Create Transfer/);
  });

  it('Create Transfer… asks the secret key in a password input, checks, creates, and the group shows its progress; Stop is confirmed', async () => {
    // Held in Running (a 20 s job could end on a busy machine before the row is read or Stop is pressed).
    await holdTransfers(true);
    try {
      await createRunAndStop();
    } finally {
      await holdTransfers(false);
    }
  });

  async function createRunAndStop(): Promise<void> {
    const { result: id, seen } = await create(answers(), 'go');
    assert.ok(typeof id === 'number' && id > 0);
    assert.equal(seen.password[11], true, 'the secret key is asked in a password input');
    assert.equal(seen.password[10], false);
    const shown = seen.review.map((item) => `${item.label} ${item.detail ?? ''}`).join('\n');
    assert.match(shown, /Sandbox \(RSA\)/);
    assert.match(shown, /ml-data\/datasets\//);
    assert.ok(!shown.includes(bucket.secretKey) && !shown.includes(bucket.accessKey), 'the review shows no key');

    const running = await until(() => rowOf(id), (row) => row?.contextValue === 'nasTransfer.Running' && /\/s/.test(String(row.description)), 'the job to run with a rate');
    assert.match(String(running?.description), /^Running · \d+ \/ 13 files · .+ \/ .+ · .+\/s · .+ left$/);
    assert.equal(nas.stores.transfersPolling, true, 'the transfer store is polled while a job moves');
    const group = transfersGroup(await nas.tree.getChildren());
    assert.match(String(group?.description), /1 in progress|\d+ in progress/);

    // Declining the question keeps the job running; confirming stops it.
    assert.equal(await nas.transfers.stop(new ScriptedAsker(false), id), false);
    assert.equal((await rowOf(id))?.contextValue, 'nasTransfer.Running');
    assert.equal(await nas.transfers.stop(new ScriptedAsker(), id), true);
    const stopped = await until(() => rowOf(id), (row) => row?.contextValue === 'nasTransfer.Stopped', 'Stopped');
    assert.match(String(stopped?.description), /^Stopped · /);

    assert.equal(await nas.transfers.remove(new ScriptedAsker(false), id), false);
    assert.ok(await rowOf(id), 'declining keeps the record');
    assert.equal(await nas.transfers.remove(new ScriptedAsker(), id), true);
    assert.equal(await rowOf(id), undefined, 'the record is gone from the group');

    const log = api.surface.logText();
    assert.ok(!log.includes(bucket.secretKey), 'the secret key is not in the log');
  }

  it('Retry asks the keys again and replaces a failed job', async () => {
    const failing = await api.services.computeClient().call('nas.transferCreate', {
      storage_id: storageId,
      direction: 1,
      s3_supplier: bucket.supplier,
      s3_endpoint: bucket.endpoint,
      s3_access_key: bucket.accessKey,
      s3_secret_key: bucket.secretKey,
      s3_bucket: 'missing-bucket',
      s3_prefix: '',
      nas_path: '/',
    });
    const failed = await until(() => rowOf(failing.id), (row) => row?.contextValue === 'nasTransfer.Error', 'the job to fail');
    assert.match(String((failed?.tooltip as vscode.MarkdownString | undefined)?.value), /S410/);
    // A retry sends the failed job's own fields with the keys asked again, connection checked first: this
    // job's bucket does not exist, so the check refuses it and the failed job stays as it was.
    await assert.rejects(driveTransfer(api, () => nas.transfers.retry(failing.id), retryFields(bucket), 'go'), /connection check failed/);
    assert.ok(await rowOf(failing.id), 'a retry that did not pass the check leaves the failed job');
    assert.equal(await nas.transfers.retry(999_999), undefined);
  });

  it('Retry of a failed job: the replacement runs to Completed, the failed one is gone, and the group follows the store without Refresh', async function () {
    this.timeout(PATIENCE_MS * 3);
    // Wrong keys on the right bucket: the platform takes the job and fails it (S410); a retry with the
    // right keys passes the check and replaces it.
    const wrongSecret = `wrong-${Date.now().toString(36)}-secret`;
    const failing = await api.services.computeClient().call('nas.transferCreate', {
      storage_id: storageId,
      name: 'itest-retry',
      direction: 1,
      s3_supplier: bucket.supplier,
      s3_endpoint: bucket.endpoint,
      s3_access_key: bucket.accessKey,
      s3_secret_key: wrongSecret,
      s3_bucket: bucket.bucket,
      s3_prefix: 'datasets/',
      nas_path: '/retried',
    });
    await until(() => rowOf(failing.id), (row) => row?.contextValue === 'nasTransfer.Error', 'the job to fail');
    // The replacement is held short of Completed until the group has been seen following it while it moves.
    await holdTransfers(true);
    let held = true;
    const release = async () => {
      if (held) await holdTransfers(false);
      held = false;
    };
    try {
      await retryToCompleted(failing.id, wrongSecret, release);
    } finally {
      await release();
    }
  });

  async function retryToCompleted(failingId: number, wrongSecret: string, release: () => Promise<void>): Promise<void> {
    const { result: replacement, seen } = await driveTransfer(api, () => nas.transfers.retry(failingId), retryFields(bucket), 'go');
    assert.ok(typeof replacement === 'number' && replacement !== failingId, `a new job replaces the failed one (got ${String(replacement)})`);
    assert.deepEqual(seen.steps, [1, 2, 3], 'a retry asks only the keys, then the review: the other fields are the failed job\'s own');
    assert.ok(seen.totals.every((total) => total === 3) && seen.titles.every((title) => /^Retry S3 Transfer "itest-retry"$/.test(title)), JSON.stringify(seen));
    assert.equal(seen.password[2], true, 'the secret key is asked in a password input');
    assert.equal(seen.reviewActive, 'Cancel', 'the retry review opens on Cancel');
    const shown = seen.review.map((item) => `${item.label} ${item.detail ?? ''}`).join('\n');
    assert.match(shown, /itest-retry|Retry/);
    assert.match(shown, /ml-data\/datasets\/[\s\S]*\/retried/);
    assert.match(shown, /replaces the failed job/);
    for (const key of [bucket.secretKey, bucket.accessKey, wrongSecret]) assert.ok(!shown.includes(key), 'the review shows no key');

    // From here on nothing presses Refresh: the view reads what the store holds, which polls on its own
    // (the profile's loop, no faster than the platform's 10 s) while the new job is Queuing/Pending/Running.
    let redraws = 0;
    const counting = nas.tree.onDidChangeTreeData(() => redraws++);
    try {
      const shown = async (id: number): Promise<TransferRow | undefined> => {
        const group = transfersGroup(await nas.tree.getChildren());
        assert.ok(group, 'the NAS view has a Transfers group');
        const rows = (await nas.tree.getChildren(group)) as TransferRow[];
        return rows.find((row) => row.item?.id === id);
      };
      const first = await waitUntil('the replacement job in the Transfers group', () => shown(replacement));
      assert.ok(first.item && ['Queuing', 'Pending', 'Running'].includes(first.item.status), `the new job starts moving (${String(first.description)})`);
      assert.equal(await shown(failingId), undefined, 'the failed job is gone from the group: the platform deleted it');
      await waitUntil('the transfer store to poll on its own while the job moves', () => nas.stores.transfersPolling);
      const redrawsBefore = redraws;
      await release();
      const done = await waitUntil('the replacement job to show Completed without a Refresh', async () => {
        // The store's own polls, each run when planned rather than after the platform's floor.
        await api.money.runPlannedPoll();
        const row = await shown(replacement);
        return row?.contextValue === 'nasTransfer.Completed' ? row : undefined;
      }, { timeoutMs: PATIENCE_MS * 2, everyMs: 250 });
      assert.ok(redraws > redrawsBefore, 'the view redrew from the store\'s changes');
      assert.match(String(done.description), /^Completed · 13 \/ 13 files · /);
      await waitUntil('the transfer store to come to rest', () => !nas.stores.transfersPolling);
    } finally {
      counting.dispose();
    }
    await assert.rejects(
      api.services.computeClient().call('nas.transferDetail', { id: failingId }),
      'the platform no longer answers for the replaced job',
    );
    const directory = ((await (await fetch(`${sandboxUrl()}/__sandbox/nas/volume?storage_id=${storageId}`)).json()) as { directory: string }).directory;
    assert.equal((await readdir(join(directory, 'retried'))).length, 13, 'the replacement job wrote the 13 objects into the volume');
    const log = api.surface.logText();
    for (const key of [bucket.secretKey, bucket.accessKey, wrongSecret]) assert.ok(!log.includes(key), 'no key in the log');
  }

  it('the create wizard goes through its optional NAS step with Enter (default: no mount); Enter at its review is Cancel', async function () {
    this.timeout(PATIENCE_MS * 4);
    const running = Promise.resolve(vscode.commands.executeCommand('computeToolkit.tasks.create'));
    let settled = false;
    void running.finally(() => (settled = true));
    for (const deadline = Date.now() + PATIENCE_MS; !settled && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    assert.equal(await running, undefined, 'Enter through every step stops at the review, where Cancel is highlighted: no task');
    // The same defaults with Create picked at the review.
    const taskId = await answerFlow(
      api,
      () => vscode.commands.executeCommand<number | undefined>('computeToolkit.tasks.create'),
      (input) => {
        const create = isPick(input) ? (input.items as (vscode.QuickPickItem & { target?: unknown })[]).find((item) => item.target === 'create') : undefined;
        if (create && isPick(input) && input.activeItems[0] !== create) input.activeItems = [create];
      },
    );
    assert.ok(typeof taskId === 'number' && taskId > 0, 'Enter through every step, Create at the review, created a task');
    const detail = await api.services.computeClient().call('task.detail', { task_id: taskId });
    assert.equal(detail.services[0]?.nas_storage_config ?? null, null, 'no volume unless one is chosen');

    // Mount NAS Volume… in a task update: only an Active volume of the task's own region.
    const document = await api.money.updates.start(taskId);
    assert.ok(document);
    if (detail.resources[0]?.region_name === '北京一区') {
      assert.equal(await api.money.updates.addMount(document, { storageId, targetDir: '/mnt/data/' }), 'added');
      assert.match(document.getText(), /"nas_storage_config": \[\s*\{\s*"storage_id": \d+,\s*"target_dir": "\/mnt\/data"/);
      assert.equal(await api.money.updates.reviewAndSend(document, false), 'sent');
      const updated = await api.services.computeClient().call('task.detail', { task_id: taskId });
      assert.deepEqual(updated.services[0]?.nas_storage_config, [{ storage_id: storageId, target_dir: '/mnt/data' }]);
    } else {
      await assert.rejects(api.money.updates.addMount(document, { storageId, targetDir: '/mnt/data' }), /not Active in/);
    }
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await api.services.computeClient().call('task.stop', { task_id: taskId });
  });

  it('the create wizard mounts a chosen volume at a typed folder (a relative one refused), and Mount NAS Volume… asks the same', async function () {
    this.timeout(PATIENCE_MS * 5);
    const refusals: string[] = [];
    /** The target-folder box: first `refused` (kept with its message), then `accepted`. */
    const typeFolder = (input: vscode.InputBox, refused: string, accepted: string): void => {
      if (input.value !== refused && input.value !== accepted) input.value = refused;
      else if (input.value === refused && messageText(input.validationMessage) !== '') {
        refusals.push(messageText(input.validationMessage));
        input.value = accepted;
      }
    };
    const taskId = await answerFlow(
      api,
      () => vscode.commands.executeCommand<number | undefined>('computeToolkit.tasks.create'),
      (input) => {
        if (isPick(input)) {
          const items = input.items as (vscode.QuickPickItem & { choice?: { region: { region_name: string; inventory: number } }; volume?: { storage_id: number } })[];
          // The region step: a 北京一区 offer in stock (the volume's region). The mount step: the volume. The review: Create.
          const wanted =
            items.find((item) => item.choice?.region.region_name === '北京一区' && item.choice.region.inventory > 0) ??
            items.find((item) => item.volume?.storage_id === storageId) ??
            (items as (vscode.QuickPickItem & { target?: unknown })[]).find((item) => item.target === 'create');
          if (wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
        } else if (/mounted in the container/.test(input.prompt ?? '')) {
          typeFolder(input, 'workspace/data', '/workspace/data/');
        }
      },
    );
    assert.ok(typeof taskId === 'number' && taskId > 0, 'the wizard created a task');
    assert.equal(refusals.length, 1, 'the relative folder was refused once');
    assert.match(refusals[0] ?? '', /Use an absolute path, e\.g\. \/mnt\/nas\./);
    // The sandbox refuses a body whose mount is not Active, not in the task's region or not absolute.
    const detail = await api.services.computeClient().call('task.detail', { task_id: taskId });
    assert.equal(detail.resources[0]?.region_name, '北京一区');
    assert.deepEqual(detail.services[0]?.nas_storage_config, [{ storage_id: storageId, target_dir: '/workspace/data' }], 'the body carries the chosen volume at the typed folder');

    // Mount NAS Volume… in a task update asks the same two questions; the same volume moves to a new folder.
    const document = await api.money.updates.start(taskId);
    assert.ok(document);
    const added = await answerFlow(
      api,
      () => api.money.updates.addMount(document),
      (input) => {
        if (isPick(input)) {
          const wanted = (input.items as (vscode.QuickPickItem & { volume?: { storage_id: number } })[]).find((item) => item.volume?.storage_id === storageId);
          if (wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
        } else {
          typeFolder(input, '/mnt/../etc', '/mnt/results');
        }
      },
    );
    assert.equal(added, 'added');
    assert.equal(refusals.length, 2, 'the folder with ".." was refused once');
    assert.match(refusals[1] ?? '', /"\." and "\.\." are not allowed/);
    assert.match(document.getText(), /"nas_storage_config": \[\s*\{\s*"storage_id": \d+,\s*"target_dir": "\/mnt\/results"/);
    assert.equal(await api.money.updates.reviewAndSend(document, false), 'sent');
    const updated = await api.services.computeClient().call('task.detail', { task_id: taskId });
    assert.deepEqual(updated.services[0]?.nas_storage_config, [{ storage_id: storageId, target_dir: '/mnt/results' }]);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await api.services.computeClient().call('task.stop', { task_id: taskId });
  });
});
