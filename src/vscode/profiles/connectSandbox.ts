// "Connect to Local Sandbox": two profiles (RSA and token mode) pointing at the sandbox, their secrets
// taken from its bootstrap endpoint, the RSA one active. Re-running it updates them in place.

import * as vscode from 'vscode';
import type { Profile } from '../services';
import { fetchSandboxBootstrap, sandboxOrigin } from './sandboxBootstrap';
import type { ProfileStore } from './profileStore';

export const SANDBOX_RSA_PROFILE_ID = 'sandbox-rsa';
export const SANDBOX_TOKEN_PROFILE_ID = 'sandbox-token';
/** Set by `npm start` and the in-host test runner; the sandbox they started. */
export const SANDBOX_URL_ENV = 'COMPUTE_TOOLKIT_SANDBOX_URL';

export interface SandboxProfiles {
  rsa: Profile;
  token: Profile;
}

export async function connectSandbox(store: ProfileStore, url: string, signal?: AbortSignal): Promise<SandboxProfiles> {
  const bootstrap = await fetchSandboxBootstrap(sandboxOrigin(url), signal);
  const urls = {
    computeBaseUrl: bootstrap.computeBaseUrl,
    modelApiBaseUrl: bootstrap.modelApiBaseUrl,
    consoleUrl: bootstrap.consoleUrl,
  };
  const rsa: Profile = { id: SANDBOX_RSA_PROFILE_ID, label: vscode.l10n.t('Sandbox (RSA)'), environment: 'sandbox', mode: 'rsa', ...urls };
  const token: Profile = { id: SANDBOX_TOKEN_PROFILE_ID, label: vscode.l10n.t('Sandbox (token)'), environment: 'sandbox', mode: 'token', ...urls };
  const { rsaMode, tokenMode, modelApiKey } = bootstrap.credentials;
  await store.batch(async () => {
    // Secrets first: a view that loads while this runs (the profile list is read as settings change)
    // must never find the new profile without its keys and report "no API token".
    await store.setSecret(rsa.id, 'apiToken', rsaMode.token);
    await store.setSecret(rsa.id, 'privateKey', rsaMode.privateKeyPem);
    await store.setSecret(rsa.id, 'platformPublicKey', rsaMode.platformPublicKeyPem);
    await store.setSecret(rsa.id, 'modelApiKey', modelApiKey);
    await store.setSecret(token.id, 'apiToken', tokenMode.token);
    await store.setSecret(token.id, 'modelApiKey', modelApiKey);
    await store.deleteSecret(token.id, 'privateKey');
    await store.deleteSecret(token.id, 'platformPublicKey');
    await store.upsert(rsa);
    await store.upsert(token);
    await store.setActive(rsa.id);
  });
  return { rsa, token };
}

/**
 * Whether activation should (re)connect quietly to the sandbox named in the environment: when no sandbox
 * profile exists yet, or the existing ones point at another sandbox (each start picks a new port and keys).
 */
export function needsSandboxConnect(store: ProfileStore, url: string): boolean {
  let origin: string;
  try {
    origin = sandboxOrigin(url);
  } catch {
    return true; // let the connect attempt fail and log why the variable is unusable
  }
  const existing = [store.find(SANDBOX_RSA_PROFILE_ID), store.find(SANDBOX_TOKEN_PROFILE_ID)];
  return existing.some((profile) => profile === undefined || !profile.computeBaseUrl.startsWith(origin));
}
