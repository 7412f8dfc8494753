// Shared set-up of the surface suites: the activated extension's API, with the runner's sandbox
// connected (both sandbox profiles stored) and the RSA-mode profile active.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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

/** Resolves with the next value of `event` that satisfies `accept` (no timers: mocha's timeout bounds it). */
export function nextEvent<T>(event: vscode.Event<T>, accept: (value: T) => boolean = () => true): Promise<T> {
  return new Promise<T>((resolve) => {
    const listener = event((value) => {
      if (!accept(value)) return;
      listener.dispose();
      resolve(value);
    });
  });
}

export { EXTENSION_ID, extensionApi };
