// Discovery of deployments among running tasks, idle tracking and cost per answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskStatus, TaskSummary } from '../../../src/core/compute/api';
import { answerCost, deploymentYuanPerHour } from '../../../src/core/deployments/cost';
import { DeploymentDiscovery, type ProbeResult } from '../../../src/core/deployments/discovery';
import { IdleTracker } from '../../../src/core/deployments/idle';

function task(id: number, status: TaskStatus, url: string | null): TaskSummary {
  return {
    task_id: id,
    task_name: `t${id}`,
    status,
    points: 1,
    runing_points: status === 'Running' ? 1 : 0,
    billing_value: 0,
    forecast_value: 0,
    create_time: '',
    resources: [],
    services: [{ service_id: 1, service_name: 's', service_image: 'i', env: null, remote_ports: [{ service_port: 8000, url }] }],
  };
}

describe('DeploymentDiscovery', () => {
  function setup(answers: Map<string, ProbeResult>) {
    const probed: string[] = [];
    let now = 0;
    const discovery = new DeploymentDiscovery({
      probe: async (url) => {
        probed.push(url);
        return answers.get(url) ?? { ok: false, reason: 'refused' };
      },
      priceOf: () => 467,
      now: () => now,
      retryNegativeMs: 1000,
    });
    return { discovery, probed, advance: (ms: number) => (now += ms) };
  }

  it('finds the task whose URL lists a chat model, does not re-probe a negative until later, drops paused ones with the reason', async () => {
    const answers = new Map<string, ProbeResult>([['http://127.0.0.1:1', { ok: true, models: [{ id: 'm/a', chat: true }, { id: 'm/embed', chat: false }] }]]);
    const { discovery, probed, advance } = setup(answers);
    const tasks = [task(1, 'Running', 'http://127.0.0.1:1/'), task(2, 'Running', 'https://2.invalid'), task(3, 'Pending', null)];
    assert.equal(await discovery.refresh(tasks), true);
    assert.deepEqual(discovery.list().map((d) => [d.taskId, d.state, d.url, d.models.map((m) => m.id), d.pointsPerSecond]), [[1, 'ready', 'http://127.0.0.1:1', ['m/a'], 467]]);
    assert.deepEqual(probed, ['http://127.0.0.1:1', 'https://2.invalid']);

    probed.length = 0;
    assert.equal(await discovery.refresh(tasks), false, 'nothing changed');
    assert.deepEqual(probed, ['http://127.0.0.1:1'], 'known deployments are re-probed; a negative is not');
    advance(1000);
    await discovery.refresh(tasks);
    assert.ok(probed.includes('https://2.invalid'), 'a negative is probed again later');

    answers.delete('http://127.0.0.1:1');
    assert.equal(await discovery.refresh(tasks), true);
    assert.equal(discovery.get(1)?.state, 'unreachable');
    assert.equal(await discovery.refresh([task(1, 'Paused', null)]), true);
    assert.equal(discovery.get(1)?.state, 'paused');
    await discovery.refresh([]);
    assert.equal(discovery.get(1)?.state, 'ended', 'a task no longer listed cannot answer');
  });

  it('probes at most a few new tasks per refresh', async () => {
    const { discovery, probed } = setup(new Map());
    const many = Array.from({ length: 100 }, (_, index) => task(index + 10, 'Running', `https://${index}.invalid`));
    await discovery.refresh(many);
    assert.equal(probed.length, 8);
  });
});

describe('idle tracking and cost per answer', () => {
  it('a deployment is due after its minutes without a request; a request restarts the count', () => {
    const idle = new IdleTracker();
    idle.watch(1, 0);
    idle.watch(2, 0);
    const settings = [{ taskId: 1, minutes: 10 }, { taskId: 2, minutes: 30 }, { taskId: 3, minutes: 1 }];
    assert.deepEqual(idle.due(settings, 9 * 60_000), []);
    idle.touch(1, 9 * 60_000);
    assert.deepEqual(idle.due(settings, 10 * 60_000), []);
    assert.deepEqual(idle.due(settings, 19 * 60_000), [1]);
    assert.deepEqual(idle.due(settings, 30 * 60_000), [1, 2]);
    idle.watch(1, 60 * 60_000);
    assert.equal(idle.lastRequestAt(1), 9 * 60_000, 'watch keeps a known request time');
  });

  it('a deployment paused (seen in the task list) and ready again counts its idle time from then, not from before the pause', () => {
    const idle = new IdleTracker();
    const settings = [{ taskId: 1, minutes: 5 }];
    idle.settle([{ taskId: 1, state: 'ready' }], 0);
    assert.equal(idle.lastRequestAt(1), 0);
    idle.settle([{ taskId: 1, state: 'paused' }], 5 * 60_000);
    assert.equal(idle.lastRequestAt(1), undefined, 'a paused deployment has no idle time');
    idle.settle([{ taskId: 1, state: 'ready' }], 6 * 60_000);
    assert.deepEqual(idle.due(settings, 6 * 60_000), [], 'recovered: not due at once');
    assert.deepEqual(idle.due(settings, 11 * 60_000), [1]);
    idle.settle([{ taskId: 1, state: 'unreachable' }], 12 * 60_000);
    assert.equal(idle.lastRequestAt(1), 6 * 60_000, 'a deployment that stopped answering for a moment keeps its count');
    idle.settle([{ taskId: 1, state: 'ended' }], 13 * 60_000);
    assert.equal(idle.lastRequestAt(1), undefined);
  });

  it('cost = seconds × ¥/h of all nodes; tokens kept', () => {
    assert.equal(deploymentYuanPerHour(1000, 2), 7.2);
    const cost = answerCost(12_000, 1000, 2, 345);
    assert.equal(cost.seconds, 12);
    assert.ok(Math.abs(cost.yuan - 0.024) < 1e-12);
    assert.equal(cost.tokens, 345);
    assert.equal(answerCost(-5, 1000, 1).yuan, 0);
  });
});
