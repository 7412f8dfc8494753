// The Storage view and the encrypted storage check against the sandbox.
import * as assert from 'node:assert/strict';
import type { StorageItem } from '../../../src/core/compute/api';
import type { ComputeApi } from '../../../src/vscode/views/index';
import { OPERATION_CATALOG } from '../../../src/core/compute/operations';
import { checkQuestions, storageChoices } from '../../../src/vscode/storage/storageCheck';
import { clearFaults, injectFault } from '../sandboxInfo';
import { computeWithSandbox, extensionApi } from './computeTestApi';

describe('compute: Storage tree and credentials check', () => {
  let compute: ComputeApi;
  let listed: StorageItem[];

  before(async () => {
    compute = await computeWithSandbox();
    const api = await extensionApi();
    // The fixture comes straight from the client, so the tree is compared with the platform's answer.
    const page = await api.services.computeClient().call('storage.list', { storage_type: 'Juicefs', status: 'Activate,Unactivated', page: 1, page_size: 100 });
    listed = page.results;
    assert.ok(listed.length > 0, 'the sandbox lists storage');
  });

  afterEach(async () => {
    await clearFaults();
  });

  it('lists the storage items with their status', async () => {
    await compute.refresh('storage');
    const { rows, message } = await compute.snapshot('storage');
    assert.equal(message, undefined, `unexpected view message: ${message}`);
    assert.deepEqual(
      rows.map((row) => row.label),
      listed.map((item) => item.storage_name),
    );
    for (const [index, row] of rows.entries()) {
      assert.equal(row.contextValue, 'storage');
      const item = listed[index];
      const state = item?.status === 'Activate' ? 'Active' : item?.status === 'Unactivated' ? 'Not activated' : '?';
      assert.ok(row.description?.startsWith(`${state} · `), `a state a person reads: ${row.description}`);
      assert.doesNotMatch(row.description ?? '', /Activate\b|Unactivated/, 'not the platform\'s state word');
      if (typeof item?.size === 'number' && item.size > 0) assert.match(row.description ?? '', / \/ \d+(\.\d)? [KMGTP]?B( \(\d+%\))?/, `size and usage: ${row.description}`);
    }
  });

  it('the check wizard from the palette offers each listed storage with its fields, then "by hand"', () => {
    const choices = storageChoices(listed);
    assert.equal(choices.length, listed.length + 1);
    for (const [index, item] of listed.entries()) {
      assert.equal(choices[index]?.label, item.storage_name);
      assert.equal(choices[index]?.storage, item, 'picking a storage must prefill its own fields');
      assert.ok(choices[index]?.detail?.includes(String(item.juicefs_region_id)), `detail ${choices[index]?.detail}`);
    }
    assert.equal(choices.at(-1)?.storage, undefined);
    assert.ok(choices.every((choice) => !(choice.description ?? '').includes('//')), 'a bucket and a "/dir" were joined with "//"');
    assert.match(choices.at(-1)?.label ?? '', /by hand/);
  });

  it('the check asks one step (both keys) for a known storage, and every field by hand', () => {
    const fields = OPERATION_CATALOG['storage.encryptCheck'].fields;
    const item = listed[0]!;
    const known = Object.fromEntries(fields.map((field) => [field.name, field.secret ? '' : String(item[field.name as keyof StorageItem] ?? '')]));
    const describe = (questions: ReturnType<typeof checkQuestions>): string[] => questions.map((q) => (q.kind === 'keyPair' ? `${q.access.name}+${q.secret.name}` : q.field.name));
    assert.deepEqual(describe(checkQuestions(fields, known, true)), ['access_key+secret_key']);
    const blank = Object.fromEntries(fields.map((field) => [field.name, '']));
    assert.deepEqual(describe(checkQuestions(fields, blank, false)), ['storage_name', 'juicefs_region_id', 'bucket', 'dir', 'endpoint', 'access_key+secret_key']);
    // A known storage that lacks a required field gets asked for that one too.
    assert.deepEqual(describe(checkQuestions(fields, { ...known, endpoint: '' }, true)), ['endpoint', 'access_key+secret_key']);
  });

  it('shows a failing storage list as a view message and recovers after a refresh', async function () {
    this.timeout(180_000);
    await injectFault({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/storage/get_storage', count: 50 });
    await compute.refresh('storage');
    const failed = await compute.snapshot('storage');
    assert.match(failed.message ?? '', /503/, `message: ${failed.message}`);
    await clearFaults();
    await compute.refresh('storage');
    const recovered = await compute.snapshot('storage');
    assert.equal(recovered.message, undefined);
    assert.ok(recovered.rows.every((row) => row.contextValue === 'storage') && recovered.rows.length === listed.length);
  });

  it('the encrypted check passes for a known bucket and fails with the server’s reason otherwise', async () => {
    const item = listed.find((candidate) => candidate.bucket.length > 0 && candidate.endpoint.length > 0);
    assert.ok(item, 'a storage item with bucket and endpoint');
    const body = {
      storage_name: item.storage_name,
      juicefs_region_id: item.juicefs_region_id,
      bucket: item.bucket,
      dir: item.dir,
      endpoint: item.endpoint,
      access_key: 'AKIDEXAMPLEACCESS',
      secret_key: 'secret-example-value-1234',
    };
    assert.deepEqual(await compute.checkStorage(body), { pass: true, message: undefined });

    const wrongBucket = await compute.checkStorage({ ...body, bucket: `${item.bucket}-missing` });
    assert.equal(wrongBucket.pass, false);
    assert.match(wrongBucket.message ?? '', /not found/);
  });
});
