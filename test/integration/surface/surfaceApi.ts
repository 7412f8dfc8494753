// Shared set-up of the surface suites: the activated extension's API, with the runner's sandbox
// connected (both sandbox profiles stored) and the RSA-mode profile active.
import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../../src/vscode/api';
import { EXTENSION_ID, extensionApi } from '../extensionApi';
import { getSandbox, type SandboxInfo } from '../sandboxInfo';

export const RSA_PROFILE = 'sandbox-rsa';
export const TOKEN_PROFILE = 'sandbox-token';

/** The API with the sandbox connected afresh and the RSA profile active; returns the sandbox's credentials too. */
export async function connectedApi(): Promise<{ api: ExtensionApi; sandbox: SandboxInfo }> {
  const api = await extensionApi();
  const sandbox = await getSandbox();
  await api.surface.connectSandbox(sandbox.url);
  assert.equal(api.services.profiles.active?.id, RSA_PROFILE);
  return { api, sandbox };
}

/** Every secret the sandbox handed out, and each long line of its PEM keys (what a leak would show). */
export function sandboxSecrets(sandbox: SandboxInfo): string[] {
  const { rsaMode, tokenMode, modelApiKey } = sandbox.bootstrap.credentials;
  const privateKeyLines = rsaMode.privateKeyPem.split(/\r?\n/).filter((line) => line.length >= 40 && !line.startsWith('-----'));
  return [rsaMode.token, tokenMode.token, modelApiKey, ...privateKeyLines];
}

export { nextEvent } from '../events';
export { EXTENSION_ID, extensionApi };
