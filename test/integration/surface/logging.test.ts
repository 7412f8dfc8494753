// The "Compute Toolkit" log channel never receives a secret: requests in both modes, a failing
// request, and even a message that embeds the secrets on purpose come out redacted.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { SandboxInfo } from '../sandboxInfo';
import { RSA_PROFILE, TOKEN_PROFILE, connectedApi, sandboxSecrets } from './surfaceApi';

describe('surface: log redaction', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;

  before(async () => {
    ({ api, sandbox } = await connectedApi());
  });

  after(async () => {
    await api.surface.connectSandbox(sandbox.url);
  });

  it('logs each request and no token, key or model key, whatever was logged', async () => {
    const { rsaMode, tokenMode, modelApiKey } = sandbox.bootstrap.credentials;
    await api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    await api.surface.profiles.setActive(TOKEN_PROFILE);
    await api.services.computeClient().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End', page: 1, page_size: 5 });
    await api.surface.profiles.setActive(RSA_PROFILE);
    // A failing call (a key the sandbox does not hold) goes through the error path and reportError.
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await api.surface.profiles.setSecret(RSA_PROFILE, 'privateKey', privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    // Capture the rejection outside the assertion: a catch-all here would also swallow an
    // AssertionError and let a wrongly accepted key pass.
    const failure = await api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof Error, 'a wrong key was accepted');
    api.services.reportError(failure, 'Surface logging test');
    await api.surface.connectSandbox(sandbox.url);
    // Careless code somewhere: the Redactor must still catch it.
    api.services.logger.error(`careless: token=${rsaMode.token} other=${tokenMode.token} model=${modelApiKey}\n${rsaMode.privateKeyPem}`);

    const log = api.surface.logText();
    assert.match(log, /resource\/search/, 'requests are not logged');
    assert.match(log, /Surface logging test/, 'the reported error is not logged');
    assert.match(log, /careless: token=/, 'the deliberate line is missing');
    for (const secret of sandboxSecrets(sandbox)) assert.ok(!log.includes(secret), 'a secret reached the log channel');
    assert.ok(!log.includes('BEGIN PRIVATE KEY'), 'a private key block reached the log channel');
  });
});
