// The NAS view on the one kind tree (kinds/kindTree.ts): a failing volume listing reads as every kind's
// view does — the message line with the short cause, the rows kept and said to be stale, Refresh
// reporting the failure — and the view recovers on the next Refresh.
import * as assert from 'node:assert/strict';
import type { NasApi } from '../../../src/vscode/nas/index';
import { computeWithSandbox, extensionApi } from '../compute/computeTestApi';
import { clearFaults, injectFault } from '../sandboxInfo';
import { PATIENCE_MS } from '../../helpers/eventually';
import { transfersGroup, volumeRows } from './nasRows';

describe('nas: the NAS view on the kind tree', function () {
  this.timeout(PATIENCE_MS * 3);
  let nas: NasApi;

  before(async () => {
    await computeWithSandbox();
    nas = (await extensionApi()).nas;
  });

  afterEach(() => clearFaults());

  it('a failing volume listing shows the shared message line, keeps the rows as stale, and recovers after Refresh', async () => {
    await nas.tree.refresh();
    const shown = volumeRows(await nas.tree.getChildren()).map((row) => row.id);
    assert.ok(shown.length > 0, 'the sandbox has volumes');
    assert.equal(nas.tree.message(), undefined, 'no message line while the list loads');

    // More failures than the client's retries, so the refresh itself fails.
    await injectFault({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/storage/nas/v1/list', count: 50 });
    await assert.rejects(nas.tree.refresh(), 'Refresh reports the failure');
    const message = nas.tree.message() ?? '';
    assert.match(message, /503/, `message: ${message}`);
    assert.match(message, /Showing NAS volumes from/, `message: ${message}`);
    const rows = await nas.tree.getChildren();
    assert.deepEqual(volumeRows(rows).map((row) => row.id), shown, 'the rows loaded before the failure stay');
    assert.ok(transfersGroup(rows), 'the Transfers group stays');

    await clearFaults();
    await nas.tree.refresh();
    assert.equal(nas.tree.message(), undefined, 'the message line goes with the failure');
  });
});
