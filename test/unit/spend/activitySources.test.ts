// The one activity rule's sources besides kernels (src/vscode/spend/activitySources.ts): a deployment
// answering holds its task; machine terminals, forwards and Run on GPU jobs are the active profile's and
// never a task's; nothing without a profile.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActivityRegistry } from '../../../src/core/spend/activity';
import { activitiesOf, registerActivitySources, type ActivityPorts } from '../../../src/vscode/spend/activitySources';

function ports(profileId: string | undefined): ActivityPorts {
  return {
    profileId: () => profileId,
    answering: () => [41],
    taskName: (taskId) => (taskId === 41 ? 'qwen-deploy' : undefined),
    machineTerminals: () => [{ deviceId: 5, terminal: { name: 'gpu-box' } }],
    machineForwards: () => [{ deviceId: 5, remotePort: 8888, localPort: 50123 }],
    runningRuns: () => [900],
  };
}

describe('spend: activity sources besides kernels', () => {
  it('reports each source as its kind, on its own subject', () => {
    assert.deepEqual(activitiesOf(ports('p1')), [
      { kind: 'model-answering', profileId: 'p1', taskId: 41, label: 'qwen-deploy' },
      { kind: 'terminal', profileId: 'p1', deviceId: 5, label: 'gpu-box' },
      { kind: 'ssh', profileId: 'p1', deviceId: 5, label: '5:8888' },
      { kind: 'run-on-gpu', profileId: 'p1', jobId: 900, label: '900' },
    ]);
    assert.deepEqual(activitiesOf(ports(undefined)), []);
  });

  it('holds an idle pause of the answering deployment and leaves machines and jobs to the budget note', () => {
    const registry = new ActivityRegistry();
    const area = registerActivitySources(registry, ports('p1'));
    assert.equal(registry.decide('idle', 'p1', 41).action, 'hold');
    assert.equal(registry.decide('timer', 'p1', 5).action, 'pause');
    assert.deepEqual(registry.notOnTasks('p1').map((activity) => activity.kind), ['terminal', 'ssh', 'run-on-gpu']);
    for (const disposable of area.disposables) disposable.dispose();
    assert.equal(registry.decide('idle', 'p1', 41).action, 'pause');
  });

  it("credits a machine terminal and forward to the machine's own profile after a switch, not to the active one", () => {
    const switched: ActivityPorts = { ...ports('p2'), machineTerminals: () => [{ deviceId: 5, profileId: 'p1', terminal: { name: 'gpu-box' } }], machineForwards: () => [{ deviceId: 5, profileId: 'p1', remotePort: 8888, localPort: 50123 }] };
    const activities = activitiesOf(switched);
    assert.deepEqual(
      activities.filter((activity) => activity.kind === 'terminal' || activity.kind === 'ssh').map((activity) => activity.profileId),
      ['p1', 'p1'],
    );
    const registry = new ActivityRegistry();
    const area = registerActivitySources(registry, switched);
    assert.deepEqual(registry.notOnTasks('p1').map((activity) => activity.kind), ['terminal', 'ssh']);
    assert.deepEqual(registry.notOnTasks('p2').map((activity) => activity.kind), ['run-on-gpu']);
    for (const disposable of area.disposables) disposable.dispose();
    // With no active profile, the machines' own activity still counts for their profile.
    assert.deepEqual(activitiesOf({ ...switched, profileId: () => undefined }).map((activity) => [activity.kind, activity.profileId]), [['terminal', 'p1'], ['ssh', 'p1']]);
  });

  it("puts its source in the registry's own list as it adds it (taken back whole if registering fails later)", () => {
    const registry = new ActivityRegistry();
    const own: NonNullable<Parameters<typeof registerActivitySources>[2]> = [];
    const area = registerActivitySources(registry, ports('p1'), own);
    assert.equal(own.length, 1, 'the source is in own');
    assert.equal(area.disposables, own);
    for (const disposable of own) disposable.dispose();
    assert.equal(registry.decide('idle', 'p1', 41).action, 'pause', 'disposing own removes the source');
  });
});
