// How every in-host suite reaches the extension under test: its id and its activated exports.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/vscode/api';
import type { ActivatedApi } from '../../src/vscode/extension';

export const EXTENSION_ID = 'compute-toolkit.compute-toolkit';

/** The extension's exports, activating it if needed and waiting until its start-up work has settled. */
export async function extensionApi(): Promise<ExtensionApi> {
  const extension = vscode.extensions.getExtension<ActivatedApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  // What activate() builds must be what the tests declare (api.ts): the composition root does not import
  // that list of every area (it would sit a floor above the areas), so the two are compared here.
  const api: ExtensionApi = await extension.activate();
  await api.ready;
  return api;
}
