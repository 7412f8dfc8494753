// A deployed model is named "model · task" wherever the chat names it (issue 27: the transcript showed the
// raw `deployment:1229834/…` id; VS Code's list showed two identical "Qwen3-8B" rows).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chatModelName, deployedModelName } from '../../../src/shared/modelDisplayName';

describe('deployed model names', () => {
  it('model without its vendor, then the task that serves it', () => {
    assert.equal(deployedModelName('Qwen/Qwen3-8B', 'deploy-qwen3-8b'), 'Qwen3-8B · deploy-qwen3-8b');
    assert.equal(deployedModelName('Qwen/Qwen3-8B'), 'Qwen3-8B');
    assert.equal(deployedModelName('my-model', 'a'), 'my-model · a');
    assert.notEqual(deployedModelName('Qwen/Qwen3-8B', 'task-a'), deployedModelName('Qwen/Qwen3-8B', 'task-b'), 'two deployments of one model differ');
  });

  it('the chat never shows a deployment id: the listed name, else the model', () => {
    const id = 'deployment:1229834/Qwen/Qwen3-8B';
    assert.equal(chatModelName(id, [{ id, name: 'Qwen3-8B · my-task' }]), 'Qwen3-8B · my-task');
    assert.equal(chatModelName(id, []), 'Qwen3-8B');
    assert.equal(chatModelName('qwen/qwen3-32b', []), 'qwen/qwen3-32b', 'hosted models keep their id');
  });

  it('bounded on hostile input', () => {
    const long = `deployment:1/${'a/'.repeat(100_000)}`;
    assert.ok(chatModelName(long).length <= 200);
    assert.ok(deployedModelName('x'.repeat(100_000), 't'.repeat(100_000)).length <= 200 + 3 + 64);
  });
});
