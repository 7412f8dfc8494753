// Readiness phases from task, nodes, log and the model list; the follower's backoff and its end.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followReadiness, phaseOf, type DeployPhase, type ReadinessObservation } from '../../../src/core/deployments/readiness';

const model = { id: 'Qwen/Qwen3-8B', chat: true };

describe('phaseOf', () => {
  const cases: [string, ReadinessObservation, DeployPhase][] = [
    ['task pending', { taskStatus: 'Pending', nodeStatuses: ['Pending'] }, 'waiting'],
    ['node pending', { taskStatus: 'Running', nodeStatuses: ['Pending'] }, 'waiting'],
    ['pulling', { taskStatus: 'Running', nodeStatuses: ['Running'], log: 'x Pulling image "vllm/vllm-openai"' }, 'pulling'],
    ['pulled, loading', { taskStatus: 'Running', nodeStatuses: ['Running'], log: 'Pulling image\nSuccessfully pulled image\nStarting to load model' }, 'loading'],
    ['no log yet, running', { taskStatus: 'Running', nodeStatuses: ['Running'] }, 'loading'],
    ['answers', { taskStatus: 'Running', nodeStatuses: ['Running'], models: [model] }, 'ready'],
    ['answers only an embedding model', { taskStatus: 'Running', nodeStatuses: ['Running'], models: [{ id: 'x/embedding', chat: false }] }, 'loading'],
    ['paused', { taskStatus: 'Paused', nodeStatuses: [] }, 'stopped'],
    ['ended', { taskStatus: 'End', nodeStatuses: [], models: [model] }, 'stopped'],
  ];
  for (const [name, observation, phase] of cases) it(`${name} → ${phase}`, () => assert.equal(phaseOf(observation), phase));

  it('reads only the tail of a huge log', () => {
    const log = 'Pulling image\n' + 'x'.repeat(2_000_000) + '\nLoading weights';
    assert.equal(phaseOf({ taskStatus: 'Running', nodeStatuses: ['Running'], log }), 'loading');
  });
});

describe('followReadiness', () => {
  it('reports each phase once, backs off 2 s doubling to 15 s, and ends when ready', async () => {
    const script: ReadinessObservation[] = [
      { taskStatus: 'Pending', nodeStatuses: ['Pending'] },
      { taskStatus: 'Pending', nodeStatuses: ['Pending'] },
      { taskStatus: 'Running', nodeStatuses: ['Running'], log: 'Pulling image' },
      { taskStatus: 'Running', nodeStatuses: ['Running'], log: 'Pulling image\nSuccessfully pulled' },
      { taskStatus: 'Running', nodeStatuses: ['Running'], log: 'Pulling image\nSuccessfully pulled' },
      { taskStatus: 'Running', nodeStatuses: ['Running'], log: '', models: [model] },
    ];
    const phases: DeployPhase[] = [];
    const delays: number[] = [];
    let index = 0;
    const result = await followReadiness({
      observe: async () => script[Math.min(index++, script.length - 1)] as ReadinessObservation,
      onPhase: (phase) => phases.push(phase),
      sleep: async (ms) => void delays.push(ms),
    });
    assert.equal(result.phase, 'ready');
    assert.deepEqual(phases, ['waiting', 'pulling', 'loading', 'ready']);
    assert.deepEqual(delays, [2000, 4000, 8000, 15000, 15000]);
  });

  it('ends with stopped when the task is paused meanwhile; gives up after repeated failures', async () => {
    const stopped = await followReadiness({ observe: async () => ({ taskStatus: 'Paused', nodeStatuses: [] }), onPhase: () => undefined, sleep: async () => undefined });
    assert.equal(stopped.phase, 'stopped');
    let calls = 0;
    await assert.rejects(
      followReadiness({ observe: async () => { calls++; throw new Error('offline'); }, onPhase: () => undefined, sleep: async () => undefined, maxFailures: 3 }),
      /offline/,
    );
    assert.equal(calls, 4);
  });
});
