// Shared steps of the AI suites: connect the sandbox profiles, wait (bounded) for a condition that
// settles asynchronously, and read a tool result's text.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { extensionApi } from '../extensionApi';
import { sandboxUrl } from '../sandboxInfo';
import { PATIENCE_MS } from '../../helpers/eventually';

export const VENDOR = 'compute-toolkit';

export async function connectedApi(): Promise<ExtensionApi> {
  const api = await extensionApi();
  const profiles = await api.surface.connectSandbox(sandboxUrl());
  await api.surface.profiles.setActive(profiles.token.id);
  assert.ok(api.services.profiles.active?.computeBaseUrl.startsWith(sandboxUrl()));
  return api;
}

/** Polls `probe` until `done` holds for its value: for state that settles after an event, never a timed assertion. */
export async function until<T>(probe: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = PATIENCE_MS): Promise<T> {
  let last: T | undefined;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`gave up waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 300)}`);
}

export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}
