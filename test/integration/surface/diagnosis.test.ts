// Failures reach the user with the right diagnosis and the action that fixes them: a key the
// platform does not hold, an expired timestamp from a skewed clock, a missing token.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { SandboxInfo } from '../sandboxInfo';
import { RSA_PROFILE, connectedApi } from './surfaceApi';

const TEN_MINUTES_MS = 10 * 60 * 1000;

async function failure(work: Promise<unknown>): Promise<Error & { likelyCause?: { kind: string; detail: string } }> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded; it should have been refused');
}

describe('surface: failure diagnosis', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;

  before(async () => {
    ({ api, sandbox } = await connectedApi());
  });

  afterEach(async () => {
    // Every test starts from the sandbox's real credentials.
    await api.surface.connectSandbox(sandbox.url);
  });

  it('a freshly generated private key the platform does not hold: token-or-key-unregistered, with Sign Request offered', async () => {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await api.surface.profiles.setSecret(RSA_PROFILE, 'privateKey', privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const error = await failure(api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }));
    assert.equal(error.likelyCause?.kind, 'token-or-key-unregistered', `diagnosed as ${String(error.likelyCause?.kind)}: ${error.message}`);
    const report = api.surface.describeError(error, 'Load resources');
    assert.ok(report);
    assert.ok(report.actions.some((action) => action.kind === 'openSignRequest'), 'no "Open Sign Request" action');
    // The cause is worded in the display language from its kind (src/vscode/errors/errorWords.ts), not the core's English detail.
    assert.match(report.message, /Likely cause: .*API token is wrong, revoked/, 'the likely cause is not in the message');
  });

  it('a timestamp from a clock 10 minutes behind: clock-skew, measured from the server Date header', async () => {
    const skewed = api.surface.createComputeClient({ now: () => Date.now() - TEN_MINUTES_MS, maxRetries: 0 });
    const error = await failure(skewed.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }));
    assert.equal(error.likelyCause?.kind, 'clock-skew', `diagnosed as ${String(error.likelyCause?.kind)}: ${error.message}`);
    const report = api.surface.describeError(error, 'Load resources');
    assert.ok(report?.actions.some((action) => action.kind === 'openSignRequest'));
  });

  it('a profile without a token: a specific message whose action stores the token', async () => {
    const store = api.surface.profiles;
    const rsa = store.find(RSA_PROFILE);
    assert.ok(rsa);
    const empty = { ...rsa, id: 'surface-empty', label: 'Surface empty' };
    await store.upsert(empty);
    try {
      await store.setActive(empty.id);
      const error = await failure(api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }));
      const report = api.surface.describeError(error, 'Load resources');
      assert.deepEqual(report?.actions[0], { kind: 'setSecret', secret: 'apiToken' });
      assert.match(report?.message ?? '', /Surface empty.*API token/);
    } finally {
      await store.remove(empty.id);
    }
  });

  it('a cancelled request is never shown', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }, { signal: controller.signal }));
    assert.equal(api.surface.describeError(error, 'Load resources'), undefined);
  });
});
