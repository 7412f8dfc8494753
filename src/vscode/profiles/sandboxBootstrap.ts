// The answer of the local sandbox's GET /__sandbox/bootstrap, validated at runtime. The shape is declared
// here again (not imported from test/) because the extension must not depend on test code; the sandbox
// contract in test/sandbox/types.ts is the other side of it.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/errors';
import { assertSecureUrl, isLoopbackHost } from '../../core/http/url';

export interface SandboxBootstrap {
  computeBaseUrl: string;
  modelApiBaseUrl: string;
  consoleUrl: string;
  credentials: {
    tokenMode: { token: string };
    rsaMode: { token: string; privateKeyPem: string; publicKeyPem: string; platformPublicKeyPem: string };
    modelApiKey: string;
  };
}

/** Normalises what the user typed into the sandbox origin (no trailing slash); loopback only. */
export function sandboxOrigin(input: string): string {
  const url = assertSecureUrl(input);
  if (!isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      vscode.l10n.t('{0} is not a local address.', url.host),
      vscode.l10n.t('The sandbox runs on this machine: use http://127.0.0.1:<port> as printed by `npm run sandbox`.'),
    );
  }
  return url.origin;
}

/** Reads and checks the bootstrap document; throws a ConfigError naming the first field that is wrong. */
export async function fetchSandboxBootstrap(origin: string, signal?: AbortSignal): Promise<SandboxBootstrap> {
  const address = `${origin}/__sandbox/bootstrap`;
  let response: Response;
  try {
    response = await fetch(address, { signal });
  } catch (error) {
    throw new ConfigError(vscode.l10n.t('No sandbox answered at {0}.', origin), vscode.l10n.t('Start it with `npm run sandbox` and use the URL it prints.'), {
      cause: error,
    });
  }
  if (!response.ok) {
    throw new ConfigError(vscode.l10n.t('{0} answered HTTP {1}.', address, response.status), vscode.l10n.t('Is this the Compute Toolkit sandbox?'));
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ConfigError(vscode.l10n.t('{0} did not answer JSON.', address), vscode.l10n.t('Is this the Compute Toolkit sandbox?'), { cause: error });
  }
  return parseSandboxBootstrap(body);
}

export function parseSandboxBootstrap(value: unknown): SandboxBootstrap {
  const root = object(value, 'bootstrap');
  const credentials = object(root.credentials, 'credentials');
  const tokenMode = object(credentials.tokenMode, 'credentials.tokenMode');
  const rsaMode = object(credentials.rsaMode, 'credentials.rsaMode');
  const url = (field: unknown, name: string): string => assertSecureUrl(text(field, name)).toString().replace(/\/+$/, '');
  return {
    computeBaseUrl: url(root.computeBaseUrl, 'computeBaseUrl'),
    modelApiBaseUrl: url(root.modelApiBaseUrl, 'modelApiBaseUrl'),
    consoleUrl: url(root.consoleUrl, 'consoleUrl'),
    credentials: {
      tokenMode: { token: text(tokenMode.token, 'credentials.tokenMode.token') },
      rsaMode: {
        token: text(rsaMode.token, 'credentials.rsaMode.token'),
        privateKeyPem: text(rsaMode.privateKeyPem, 'credentials.rsaMode.privateKeyPem'),
        publicKeyPem: text(rsaMode.publicKeyPem, 'credentials.rsaMode.publicKeyPem'),
        platformPublicKeyPem: text(rsaMode.platformPublicKeyPem, 'credentials.rsaMode.platformPublicKeyPem'),
      },
      modelApiKey: text(credentials.modelApiKey, 'credentials.modelApiKey'),
    },
  };
}

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(name, vscode.l10n.t('an object'));
  return value as Record<string, unknown>;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(name, vscode.l10n.t('a non-empty string'));
  return value;
}

function invalid(name: string, expected: string): ConfigError {
  return new ConfigError(vscode.l10n.t('The sandbox bootstrap is malformed: "{0}" is not {1}.', name, expected), vscode.l10n.t('Update the sandbox and the extension together.'));
}
