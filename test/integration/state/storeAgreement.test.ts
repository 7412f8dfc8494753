// The remote-state store inside a real VS Code against the sandbox, with 150 more running tasks and
// 2,000 ended ones: a new task is announced "running" exactly once, never "ended", and only after
// the Tasks view already shows it Running (one store event feeds both, view first); the status bar's
// burn rate counts every running task; each poll is one listing per watched profile.
import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { TaskSummary } from '../../../src/core/compute/api';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { seedTasks } from '../sandboxInfo';
import { PATIENCE_MS } from '../../helpers/eventually';

/** Every Running task, read by the test itself (page after page). */
async function runningTasks(api: ExtensionApi): Promise<TaskSummary[]> {
  const tasks: TaskSummary[] = [];
  for (let page = 1; ; page++) {
    const result = await api.services.computeClient().call('task.list', { type: 'Deployment', status: 'Running', page, page_size: 100 });
    tasks.push(...result.results);
    if (result.results.length < 100) return tasks;
  }
}

describe('state: Tasks view, status bar and notifications agree (150 running, 2,000 ended)', () => {
  let api: ExtensionApi;
  let seededRunning: number[] = [];

  before(async function () {
    this.timeout(180_000);
    await computeWithSandbox();
    api = await extensionApi();
    seededRunning = (await seedTasks({ running: 150, ended: 2000 })).ids.running;
    await api.compute.refresh('tasks');
  });

  // The suites after this one run on a quiet account: pause what was seeded running (the store goes to rest).
  after(async function () {
    this.timeout(180_000);
    const client = api.services.computeClient();
    for (let i = 0; i < seededRunning.length; i += 10) {
      await Promise.all(seededRunning.slice(i, i + 10).map((taskId) => client.call('task.pause', { task_id: taskId })));
    }
    await api.compute.refresh('tasks');
  });

  it('a new task: one "running" notification after the view shows it, no "ended"; burn rate counts every running task', async function () {
    this.timeout(180_000);
    const before = api.money.notificationCount();
    const region = (await api.compute.searchRegions()).find(({ region: candidate }) => candidate.inventory > 0);
    assert.ok(region);
    const name = `it-store-${Date.now()}`;
    const taskId = await api.compute.createTask({ name, region: region.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [80], points: 1, env: {}, startCommand: '' });

    let viewAtNotice: TaskSummary | undefined;
    let notified = false;
    for (const deadline = Date.now() + PATIENCE_MS; !notified && Date.now() < deadline;) {
      // Each look is a whole poll (it resolves when the stores hold the answer), not a guess at its time.
      await api.money.wakeWatcher();
      notified = api.money.notificationsSince(before).some((n) => n.kind === 'taskStarted' && n.message.includes(name));
      // Read the view in the same turn the notification is first seen.
      if (notified) viewAtNotice = api.compute.listedTasks().find((task) => task.task_id === taskId);
    }
    assert.ok(notified, `no "running" notification for ${name}; shown: ${api.money.notificationsSince(before).map((n) => n.message).join(' | ')}`);
    assert.equal(viewAtNotice?.status, 'Running', 'the Tasks view showed the task Running when the notification came');

    // A few more polls: nothing else is announced for this account.
    for (let i = 0; i < 3; i++) await api.money.wakeWatcher();
    const shown = api.money.notificationsSince(before);
    assert.equal(shown.filter((n) => n.kind === 'taskStarted' && n.message.includes(name)).length, 1, 'announced once');
    assert.deepEqual(shown.filter((n) => n.kind === 'taskEnded').map((n) => n.message), [], 'no task was announced as ended');

    // The view and the platform agree on every running task (past the first page of 100).
    const truth = (await runningTasks(api)).map((task) => task.task_id).sort((a, b) => a - b);
    const listed = api.compute.listedTasks().filter((task) => task.status === 'Running').map((task) => task.task_id).sort((a, b) => a - b);
    assert.ok(truth.length > 150);
    assert.deepEqual(listed, truth);
    // The status bar's burn rate is the store's running tasks (a rate above zero with 150+ running).
    assert.match(api.money.statusBarText(), /^\$\(flame\) ¥[\d,.]+\/h · today/);
    assert.doesNotMatch(api.money.statusBarText(), /¥0\.00\/h/);
    await api.compute.stopTask(taskId);
  });

  it('one listing per kind per watched profile per poll, and the active profile is watched', async function () {
    this.timeout(180_000);
    const watched = api.money.watchedProfiles();
    const active = api.services.profiles.active;
    assert.ok(active && watched.includes(active.label), `watched: ${watched.join(', ')}`);
    // The active profile's listings only (another watched profile polls on its own timer), around one
    // whole poll: the refresh cancels the profile's timer and resolves when its stores hold the answer.
    const before = api.money.stateListings(active.id);
    await api.money.wakeWatcher();
    // Six kinds of remote state, each followed by its view: tasks, batch jobs, NAS volumes, S3 transfers, image preheats, rented machines.
    assert.equal(api.money.stateListings(active.id) - before, 6, 'one refresh of the active profile = one listing (of every page) per kind');
  });
});
