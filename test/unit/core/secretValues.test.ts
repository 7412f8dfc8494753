// A token or model API key with a line break (or another character no header can carry) is refused
// before any request, with an error about that secret that names which one (the UI offers the command
// that stores it), never "NetworkError … UND_ERR_INVALID_ARG" from the HTTP stack, never the value.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../../src/core/compute/client';
import { createModelClient } from '../../../src/core/inference';
import { checkedHeaderSecret, headerSecretProblem, InvalidSecretError } from '../../../src/core/secretValues';
import { json, startTestServer, type TestServer } from '../http/helpers/testServer';
import { pemBegin } from '../../helpers/pemArmor';

const TOKEN = `tok${Math.random().toString(36).slice(2)}x`;

describe('tokens and API keys no header can carry', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.handle((_req, res) => json(res, 200, { code: '0000', message: 'success', data: { count: 0, results: [] } }));
  });
  after(() => server.close());

  const refusal = (secret: 'apiToken' | 'modelApiKey', label: RegExp) => (error: unknown) => {
    assert.ok(error instanceof InvalidSecretError, `${String(error)}`);
    assert.equal(error.secret, secret);
    assert.match(error.message, label);
    assert.doesNotMatch(error.message, /NetworkError|UND_ERR/);
    assert.ok(!error.message.includes(TOKEN.slice(3, 12)), 'never the value');
    return true;
  };

  for (const [name, token] of [
    ['CR LF inside', `${TOKEN}\r\nX-Injected: 1`],
    ['LF inside', `${TOKEN.slice(0, 5)}\n${TOKEN.slice(5)}`],
    ['CR alone', `${TOKEN}\rx`],
  ] as const) {
    it(`compute client, token mode: ${name}`, async () => {
      const before = server.requests.length;
      const client = createComputeClient({ baseUrl: server.url, credentials: async () => ({ mode: 'token', token }), maxRetries: 0 });
      await assert.rejects(client.call('task.list', { type: 'Deployment', status: 'Running', page: 1, page_size: 1 }), refusal('apiToken', /API token contains a line break \(CR or LF\)/));
      assert.equal(server.requests.length, before, 'nothing was sent');
    });
  }

  it('compute client: a token that is not ASCII', async () => {
    const client = createComputeClient({ baseUrl: server.url, credentials: async () => ({ mode: 'token', token: `${TOKEN}令牌` }), maxRetries: 0 });
    await assert.rejects(client.call('task.list', { type: 'Deployment', status: 'Running', page: 1, page_size: 1 }), refusal('apiToken', /API token .*printable ASCII/));
  });

  it('model client: a key with a line break', async () => {
    const before = server.requests.length;
    const client = createModelClient({ apiBaseUrl: `${server.url}/v1`, apiKey: async () => `sk-${TOKEN}\nmore`, maxRetries: 0 });
    await assert.rejects(client.listModels(), refusal('modelApiKey', /model API key contains a line break/));
    assert.equal(server.requests.length, before, 'nothing was sent');
  });

  it('a trailing newline is only trimmed; the checks name the secret and never quote it', () => {
    assert.equal(checkedHeaderSecret(`  ${TOKEN}\r\n`, 'apiToken'), TOKEN);
    assert.equal(headerSecretProblem(TOKEN, 'API token'), undefined);
    for (const bad of [`${TOKEN} x`, `${TOKEN}\tx`, `${TOKEN}\u0000`, pemBegin('PRIVATE KEY'), '']) {
      const problem = headerSecretProblem(bad, 'API token') ?? '';
      assert.match(problem, /API token|PEM key/);
      assert.ok(!problem.includes(TOKEN), problem);
    }
  });
});
