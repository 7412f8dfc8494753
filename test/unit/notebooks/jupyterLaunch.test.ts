// The Jupyter server token of a task the extension creates (src/core/notebooks/jupyterLaunch.ts,
// src/vscode/jupyterTokens.ts): made from the cryptographic random source, added to the env as
// JUPYTER_TOKEN only for a Jupyter image, the user's own token kept, and stored only in the secret store.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJupyterImage, JUPYTER_TOKEN_ENV, newJupyterToken, withJupyterToken } from '../../../src/core/notebooks/jupyterLaunch';
import { SecretKeys } from '../../../src/vscode/commandIds';
import { JupyterTokens } from '../../../src/vscode/jupyterTokens';

function memorySecrets(): { store: Map<string, string>; secrets: ConstructorParameters<typeof JupyterTokens>[0] } {
  const store = new Map<string, string>();
  return {
    store,
    secrets: {
      get: (key) => Promise.resolve(store.get(key)),
      store: (key, value) => Promise.resolve(void store.set(key, value)),
      delete: (key) => Promise.resolve(void store.delete(key)),
    },
  };
}

describe('notebooks: the Jupyter token the extension makes', () => {
  it('is 32 bytes of the random source, as hex, and differs each time', () => {
    const asked: number[] = [];
    const token = newJupyterToken((size) => {
      asked.push(size);
      return new Uint8Array(size).fill(0xab);
    });
    assert.deepEqual(asked, [32]);
    assert.equal(token, 'ab'.repeat(32));
    const tokens = new Set(Array.from({ length: 50 }, () => newJupyterToken()));
    assert.equal(tokens.size, 50);
    for (const made of tokens) assert.match(made, /^[0-9a-f]{64}$/);
  });

  it('is added to the env, keeping the other variables; a token the user set stays theirs', () => {
    const made = withJupyterToken({ HF_HOME: '/data' }, () => 'new-token');
    assert.deepEqual(made, { env: { HF_HOME: '/data', [JUPYTER_TOKEN_ENV]: 'new-token' }, token: 'new-token', generated: true });
    const own = withJupyterToken({ JUPYTER_TOKEN: 'mine' }, () => assert.fail('no new token when the user set one'));
    assert.deepEqual(own, { env: { JUPYTER_TOKEN: 'mine' }, token: 'mine', generated: false });
    assert.equal(withJupyterToken({ JUPYTER_TOKEN: '' }, () => 'filled').token, 'filled');
  });

  it('knows Jupyter images by name, not by a word elsewhere', () => {
    assert.ok(isJupyterImage('quay.io/jupyter/pytorch-notebook:cuda12-latest'));
    assert.ok(isJupyterImage(' jupyter/base-notebook '));
    assert.ok(!isJupyterImage('vllm/vllm-openai:latest'));
    assert.ok(!isJupyterImage('example.com/myjupyter:1'));
  });

  it('a create with a Jupyter image carries the token in its env and keeps it in the secret store only', async () => {
    const { store, secrets } = memorySecrets();
    const tokens = new JupyterTokens(secrets);
    assert.equal(tokens.forCreate('vllm/vllm-openai:latest', { A: '1' }), undefined);
    const create = tokens.forCreate('quay.io/jupyter/pytorch-notebook:cuda12-latest', { A: '1' });
    assert.ok(create);
    const token = create.env[JUPYTER_TOKEN_ENV];
    assert.match(token ?? '', /^[0-9a-f]{64}$/);
    assert.equal(store.size, 0, 'nothing kept before the task has an id');
    await create.keep('profile-1', 42);
    assert.deepEqual([...store.entries()], [[`${SecretKeys.jupyterTokenPrefix}.profile-1.42`, token]]);
    assert.equal(await tokens.get('profile-1', 42), token);
  });
});
