// How every in-host suite reaches the extension under test: its id and its activated exports.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/vscode/api';

export const EXTENSION_ID = 'compute-toolkit.compute-toolkit';

/** The extension's exports, activating it if needed and waiting until its start-up work has settled. */
export async function extensionApi(): Promise<ExtensionApi> {
  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  await api.ready;
  return api;
}
