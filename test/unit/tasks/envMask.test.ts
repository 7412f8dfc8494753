// Task env values are masked wherever a task is displayed (src/core/tasks/envMask.ts).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASKED_VALUE, maskEnvText, maskTaskEnv } from '../../../src/core/tasks/envMask';

describe('task env masking', () => {
  it('masks every value of a dotenv string and keeps the names', () => {
    assert.equal(maskEnvText('HF_TOKEN=hf_abcdefghijklmnop\nMODEL=Qwen/Qwen3'), `HF_TOKEN=${MASKED_VALUE}\nMODEL=${MASKED_VALUE}`);
    assert.equal(maskEnvText('A=1; B=x=y'), `A=${MASKED_VALUE}; B=${MASKED_VALUE}`);
    assert.equal(maskEnvText('just-a-secret'), MASKED_VALUE);
  });

  it('masks env fields anywhere in a task detail, in any shape, and nothing else', () => {
    const detail = {
      task_id: 7,
      task_name: 'serve',
      services: [
        { service_name: 'a', env: 'HF_TOKEN=hf_secret_value_123' },
        { service_name: 'b', env: { HF_TOKEN: 'hf_secret_value_123' } },
        { service_name: 'c', env: [{ name: 'HF_TOKEN', value: 'hf_secret_value_123' }] },
        { service_name: 'd', env: null },
      ],
    };
    const masked = maskTaskEnv(detail);
    const text = JSON.stringify(masked);
    assert.ok(!text.includes('hf_secret_value_123'), text);
    assert.equal(text.split('HF_TOKEN').length - 1, 3, 'the names stay readable');
    assert.equal(masked.task_name, 'serve');
    assert.equal(masked.services[3]?.env, null);
    assert.equal(detail.services[0]?.env, 'HF_TOKEN=hf_secret_value_123', 'the input is not changed');
  });
});
