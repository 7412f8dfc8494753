// Kinds on the shared pattern inside a real VS Code: the Image Preheat view (a preheat created, followed
// by the store to ready with one "ready" notification through the NotificationCenter, stopped out of the
// list; an account that has not applied sees what to do instead of a bare code) and the Jobs view's
// failure line and job-end notification through the same center. The store's polls are driven through
// the test API (wakeWatcher), never waited for on a timer.
import * as assert from 'node:assert/strict';
import type { Device } from '../../../src/core/compute/api';
import { buildJobBody } from '../../../src/core/jobs/jobBody';
import type { ExtensionApi } from '../../../src/vscode/api';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { clearFaults, injectFault, sandboxUrl } from '../sandboxInfo';
import { waitUntil } from '../../helpers/eventually';

async function preheatControl(fields: { enabled?: boolean; syncMs?: number }): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/preheat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  assert.equal(response.status, 200);
}

describe('kinds: the Image Preheat view and the Jobs view on the shared kind tree', () => {
  let api: ExtensionApi;

  before(async function () {
    this.timeout(180_000);
    await computeWithSandbox();
    api = await extensionApi();
    await preheatControl({ enabled: true, syncMs: 0 });
  });
  after(() => preheatControl({ enabled: true, syncMs: 2000 }));

  it('lists a new preheat, follows it to ready with one notification, and drops it once stopped', async function () {
    this.timeout(180_000);
    const shownBefore = api.money.notificationCount();
    const id = await api.preheat.create('registry.example.com/team/app:1.0', ['bj-jxq-t1'], `it-preheat-${Date.now()}`);
    const ready = await waitUntil('the preheat to be listed as ready', async () => {
      await api.money.wakeWatcher();
      const row = (await api.preheat.snapshot()).rows.find((candidate) => candidate.id === id);
      return row && /ready/.test(row.description) ? row : undefined;
    });
    assert.equal(ready.contextValue, 'preheat.stoppable', 'a Running preheat offers Stop');
    assert.match(ready.description, /registry\.example\.com\/team\/app:1\.0/);
    const notices = await waitUntil('the ready notification', () => {
      const found = api.money.notificationsSince(shownBefore).filter((notice) => notice.kind === 'preheatDone');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(notices.length, 1);
    await api.preheat.stop(id);
    await waitUntil('the stopped preheat to leave the view', async () => {
      await api.money.wakeWatcher();
      return !(await api.preheat.snapshot()).rows.some((row) => row.id === id);
    });
  });

  it('an account that has not applied sees "not enabled" and what to do, not the platform code', async function () {
    this.timeout(180_000);
    await preheatControl({ enabled: false });
    try {
      await assert.rejects(api.preheat.refresh(), /not enabled/);
      const snapshot = await api.preheat.snapshot();
      assert.match(snapshot.error ?? '', /Image preheat is not enabled for this account/);
      assert.match(snapshot.message ?? '', /not enabled/);
      assert.doesNotMatch(snapshot.message ?? '', /C008/);
      await assert.rejects(api.preheat.create('img', ['bj-jxq-t1']), /not enabled/);
    } finally {
      await preheatControl({ enabled: true });
    }
    await api.preheat.refresh();
    assert.equal((await api.preheat.snapshot()).error, undefined);
  });

  it('the Jobs view shows a failed listing on its shared message line, and recovers after a refresh', async function () {
    this.timeout(180_000);
    await injectFault({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/task/job/search', count: 50 });
    try {
      await api.money.wakeWatcher();
      // Before: a row "Could not load jobs: <the raw error>" and no message line.
      const message = await waitUntil('the failure on the Jobs view line', () => api.jobs.viewMessage());
      assert.match(message, /^⚠ .*503/);
    } finally {
      await clearFaults();
    }
    await api.money.wakeWatcher();
    await waitUntil('the Jobs view to recover', () => api.jobs.viewMessage() === undefined || undefined);
  });

  it('a job that ends is announced once through the NotificationCenter (jobEnded), with Open Logs', async function () {
    this.timeout(180_000);
    const client = api.surface.createComputeClient({});
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.filter((device: Device) => device.gpu_count === 1).flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
    await api.money.wakeWatcher(); // the store knows the jobs before this one: its end is news
    const name = `it-kind-${Date.now()}`;
    const { task_id } = await client.call('job.create', buildJobBody({ name, resource, image: 'img', command: 'echo done', spot: false, timeoutSec: 60, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [] }));
    const notice = await waitUntil('the job-end notification', async () => {
      await api.money.wakeWatcher();
      return api.money.notifications().find((shown) => shown.kind === 'jobEnded' && shown.message.includes(name));
    });
    assert.deepEqual(notice.actions, ['Open Logs']);
    assert.ok(api.jobs.snapshot().some((row) => row.id === task_id));
  });
});
