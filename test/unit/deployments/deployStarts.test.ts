// How long a deployment took to answer (src/vscode/deployments/deployStarts.ts): recorded at the create
// every deploy path shares and told once when a follow finds it ready — whoever called deploy/waitReady.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StartTook } from '../../../src/core/preheat/preheatFollow';
import { DeployStarts } from '../../../src/vscode/deployments/deployStarts';

describe('deployments: the start-time note', () => {
  it('tells how long from the create to ready, once per create; a ready nobody created here tells nothing', () => {
    let now = 1_000;
    const told: StartTook[] = [];
    const starts = new DeployStarts((start) => void told.push(start), () => now);
    starts.began(7, { what: 'Qwen/Qwen3-8B', image: 'vllm/vllm-openai:latest', region: 'r1' });
    now += 125_000;
    starts.ready(7);
    starts.ready(7);
    starts.ready(8);
    assert.deepEqual(told, [{ what: 'Qwen/Qwen3-8B', image: 'vllm/vllm-openai:latest', region: 'r1', ms: 125_000 }]);
  });

  it('keeps a bounded number of starts waiting, dropping the oldest', () => {
    const told: number[] = [];
    const starts = new DeployStarts((start) => void told.push(start.ms), () => 0);
    for (let taskId = 1; taskId <= 150; taskId++) starts.began(taskId, { what: 'm', image: 'i', region: 'r' });
    starts.ready(1);
    starts.ready(150);
    assert.deepEqual(told, [0], 'the oldest was dropped, the newest told');
  });
});
