// Profiles and secrets through the real SecretStorage and settings of the running VS Code, and a
// profile switch re-scoping the status bar, the context key consumers and the compute client at once.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { SandboxInfo } from '../sandboxInfo';
import { EXTENSION_ID } from '../extensionApi';
import { RSA_PROFILE, TOKEN_PROFILE, connectedApi, nextEvent, sandboxSecrets } from './surfaceApi';
import { PATIENCE_MS } from '../../helpers/eventually';

async function waitUntil(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + PATIENCE_MS; Date.now() < deadline;) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${what} within ${PATIENCE_MS / 1000} s`);
}

describe('surface: profiles and secrets', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;

  before(async () => {
    ({ api, sandbox } = await connectedApi());
  });

  after(async () => {
    await api.surface.profiles.setActive(RSA_PROFILE);
  });

  it('connectSandbox (the command, with a URL argument) stores both profiles and their secrets', async () => {
    const result = (await vscode.commands.executeCommand('computeToolkit.profile.connectSandbox', sandbox.url)) as
      | { rsa: { id: string }; token: { id: string } }
      | undefined;
    assert.equal(result?.rsa.id, RSA_PROFILE);
    assert.equal(result?.token.id, TOKEN_PROFILE);
    const { rsaMode, tokenMode, modelApiKey } = sandbox.bootstrap.credentials;
    const profiles = api.services.profiles;
    assert.equal(await profiles.getSecret(RSA_PROFILE, 'apiToken'), rsaMode.token);
    assert.equal(await profiles.getSecret(RSA_PROFILE, 'privateKey'), rsaMode.privateKeyPem);
    assert.equal(await profiles.getSecret(RSA_PROFILE, 'platformPublicKey'), rsaMode.platformPublicKeyPem);
    assert.equal(await profiles.getSecret(RSA_PROFILE, 'modelApiKey'), modelApiKey);
    assert.equal(await profiles.getSecret(TOKEN_PROFILE, 'apiToken'), tokenMode.token);
    assert.equal(await profiles.getSecret(TOKEN_PROFILE, 'privateKey'), undefined);
    assert.equal(api.services.profiles.active?.id, RSA_PROFILE);
  });

  it('the walkthrough\'s keys step completes once the active profile has its keys, however they were stored', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { walkthroughs: { steps: { id: string; completionEvents: string[] }[] }[] } };
    const keys = manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps).find((step) => step.id === 'keys');
    assert.ok(keys?.completionEvents.includes('onContext:computeToolkit.hasCredentials'), 'the keys step does not complete on the credentials context key');
    // Connect to Local Sandbox stored the RSA profile's token and private key (the test above).
    assert.equal(api.services.profiles.active?.id, RSA_PROFILE);
    assert.equal(await api.surface.hasCredentials(), true);
    const privateKey = await api.services.profiles.getSecret(RSA_PROFILE, 'privateKey');
    assert.ok(privateKey);
    await api.surface.profiles.deleteSecret(RSA_PROFILE, 'privateKey');
    try {
      await waitUntil('the key is reported missing', async () => (await api.surface.hasCredentials()) === false);
    } finally {
      await api.surface.profiles.setSecret(RSA_PROFILE, 'privateKey', privateKey);
    }
    await waitUntil('the key is reported back', async () => (await api.surface.hasCredentials()) === true);
  });

  it('a secret written through the API reads back from SecretStorage, with its set time recorded', async () => {
    const store = api.surface.profiles;
    const before = Date.now();
    await store.setSecret(TOKEN_PROFILE, 'modelApiKey', 'surface-test-model-key-0123456789');
    assert.equal(await store.getSecret(TOKEN_PROFILE, 'modelApiKey'), 'surface-test-model-key-0123456789');
    const setAt = store.secretSetAt(TOKEN_PROFILE, 'modelApiKey');
    assert.ok(setAt !== undefined && setAt >= before, `set time ${String(setAt)} not recorded`);
    await store.setSecret(TOKEN_PROFILE, 'modelApiKey', sandbox.bootstrap.credentials.modelApiKey);
  });

  it('settings hold the profiles but no secret', () => {
    const settings = JSON.stringify(vscode.workspace.getConfiguration().get('computeToolkit'));
    assert.ok(settings.includes(RSA_PROFILE) && settings.includes(sandbox.url), 'the settings snapshot does not hold the profiles');
    for (const secret of sandboxSecrets(sandbox)) {
      assert.ok(!settings.includes(secret), 'a secret was written to settings');
    }
    const stored = vscode.workspace.getConfiguration('computeToolkit').get<{ id: string; environment: string }[]>('profiles') ?? [];
    assert.deepEqual(
      stored.filter((profile) => profile.environment === 'sandbox').map((profile) => profile.id).sort(),
      [RSA_PROFILE, TOKEN_PROFILE],
    );
  });

  it('switching profile fires one change, re-labels the status bar and rebuilds the compute client', async () => {
    const clientBefore = api.services.computeClient();
    assert.equal(api.surface.statusBarText(), '$(server-environment) Sandbox (RSA)', 'the mode is named once');
    const changed = nextEvent(api.services.profiles.onDidChangeActive);
    const result = (await vscode.commands.executeCommand('computeToolkit.profile.switch', TOKEN_PROFILE)) as { id: string } | undefined;
    assert.equal(result?.id, TOKEN_PROFILE);
    assert.equal((await changed)?.id, TOKEN_PROFILE);
    assert.equal(api.surface.statusBarText(), '$(server-environment) Sandbox (token)', 'the mode is named once');
    // Screen readers hear plain words, never the tooltip's Markdown source.
    const spoken = api.surface.statusBarAccessibleName();
    assert.match(spoken, /Sandbox \(token\)/);
    assert.doesNotMatch(spoken, /[\\*`]/, `the accessible name carries Markdown: ${spoken}`);
    const clientAfter = api.services.computeClient();
    assert.notEqual(clientAfter, clientBefore, 'the client of the previous profile is still handed out');
    // The new client really is token-mode: what it prepares carries no signature.
    const prepared = await clientAfter.prepare('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    assert.equal(prepared.mode, 'token');
    assert.equal(prepared.displayHeaders.sign_str, undefined);
  });

  it('the token-mode profile works against the sandbox after the switch', async () => {
    await api.surface.profiles.setActive(TOKEN_PROFILE);
    const result = await api.services.computeClient().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    assert.ok(Array.isArray(result.results) && result.results.length > 0, 'no devices from the sandbox');
  });
});
