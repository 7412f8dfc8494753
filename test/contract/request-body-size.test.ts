// The request body caps (docs/signing.md, "Body size") against the strict sandbox: a body just under
// the byte cap is encrypted, signed and accepted; one over either cap is refused with a clear error
// before anything is sent.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeCredentials, TaskCreateBody } from '../../src/core/compute/api';
import { inStockTaskBody } from './helpers/inStockTaskBody';
import { MAX_BODY_BYTES, MAX_BODY_VALUES } from '../../src/core/compute/bodySize';
import { createComputeClient } from '../../src/core/compute/client';
import { ConfigError } from '../../src/core/errors';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('request body caps against the strict sandbox', () => {
  let sandbox: Sandbox;
  let credentials: ComputeCredentials;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    const rsa = sandbox.credentials.rsaMode;
    credentials = { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem };
  });
  after(() => sandbox.close());

  // The sandbox decrypts a 512 KiB body in about 2,000 RSA blocks: on a loaded machine that alone ran past the
  // default 30 s whole-request timeout. The test is about acceptance, not speed.
  const client = () => createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials, retry: { baseDelayMs: 5, maxDelayMs: 1_000 }, timeoutMs: 180_000 });

  const createBody = (name: string, env: string | null, args: string[] = []): Promise<TaskCreateBody> =>
    inStockTaskBody(client(), name, { service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }], env, start_script_v2: { command: null, args } });


  it('a body just under 512 KiB is encrypted, signed and accepted, and reads back whole', async () => {
    const small = await createBody('just under the cap', '');
    const env = 'E'.repeat(MAX_BODY_BYTES - Buffer.byteLength(JSON.stringify(small)));
    const body = { ...small, services: [{ ...small.services[0]!, env }] };
    assert.equal(Buffer.byteLength(JSON.stringify(body)), MAX_BODY_BYTES);
    const { task_id } = await client().call('task.create', body, { encrypt: true });
    assert.equal((await client().call('task.detail', { task_id })).task_name, 'just under the cap');
  });

  for (const [what, key, body] of [
    ['a 4 MB env', 'body.tooLarge', (base: TaskCreateBody) => ({ ...base, services: [{ ...base.services[0]!, env: 'E'.repeat(4 * 1024 * 1024) }] })],
    [`${MAX_BODY_VALUES + 1} start arguments`, 'body.tooManyValues', (base: TaskCreateBody) => ({ ...base, services: [{ ...base.services[0]!, start_script_v2: { command: null, args: new Array<string>(MAX_BODY_VALUES + 1).fill('') } }] })],
  ] as const) {
    it(`${what}: refused with a clear error before anything is sent`, async () => {
      const base = await createBody('over the cap', null);
      const sent = sandbox.requests.length;
      await assert.rejects(client().call('task.create', body(base), { encrypt: true }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.words?.message.key, key);
        assert.match(error.message, /this extension sends (at most \d+ )?in one request/);
        assert.match(error.hint ?? '', /volume or in the image/);
        return true;
      });
      assert.equal(sandbox.requests.length, sent, 'nothing reached the sandbox');
    });
  }
});
