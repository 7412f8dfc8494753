import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelDisplayName } from '../../../src/shared/modelDisplayName';

describe('modelDisplayName', () => {
  it('derives a readable name from <vendor>/<model>', () => {
    assert.equal(modelDisplayName('qwen/qwen3-32b'), 'Qwen3 32B (qwen)');
    assert.equal(modelDisplayName('deepseek/deepseek-r1'), 'Deepseek R1 (deepseek)');
    assert.equal(modelDisplayName('mistralai/mixtral-8x7b_instruct-v0.1'), 'Mixtral 8X7B Instruct V0.1 (mistralai)');
  });

  it('keeps an id without a vendor, and one with nothing readable, as it is', () => {
    assert.equal(modelDisplayName('gpt-4o'), 'Gpt 4o');
    assert.equal(modelDisplayName('vendor/---'), 'vendor/---');
    assert.equal(modelDisplayName(''), '');
  });

  it('bounds what a server sends: a huge id yields a short name', () => {
    const name = modelDisplayName(`v/${'a-'.repeat(500_000)}`);
    assert.ok(name.length < 400, `name of ${name.length} chars`);
  });
});
