// "Generate RSA Key Pair" in the running VS Code: the private half lands in SecretStorage, the public
// PEM opens read-only (closing it must never ask to save an untitled file) and goes to the clipboard.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { GeneratedKeyReport } from '../../../src/vscode/profiles/keyCommands';
import { DOCUMENT_SCHEME } from '../../../src/vscode/documents/readOnlyDocuments';
import { RSA_PROFILE, connectedApi } from './surfaceApi';

const PROFILE_ID = 'keygen-surface-test';

describe('surface: generate a key pair', () => {
  let api: ExtensionApi;

  before(async () => {
    ({ api } = await connectedApi());
    // A profile of its own, without a key, so no replace-confirmation modal appears and the sandbox keys stay.
    await api.surface.profiles.upsert({
      id: PROFILE_ID,
      label: 'Keygen test',
      environment: 'dev',
      mode: 'rsa',
      computeBaseUrl: 'https://compute.invalid',
      modelApiBaseUrl: 'https://models.invalid/v1',
      consoleUrl: 'https://console.invalid',
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.surface.profiles.remove(PROFILE_ID);
    await api.surface.profiles.setActive(RSA_PROFILE);
  });

  it('stores the private key, shows the matching public PEM in a read-only document and copies it', async () => {
    const report = (await vscode.commands.executeCommand('computeToolkit.keys.generate', PROFILE_ID)) as GeneratedKeyReport | undefined;
    assert.ok(report, 'the command returned no report');
    const stored = await api.surface.profiles.getSecret(PROFILE_ID, 'privateKey');
    assert.ok(stored, 'no private key was stored');
    const derivedPublic = crypto.createPublicKey(crypto.createPrivateKey(stored)).export({ type: 'spki', format: 'pem' }).toString();
    assert.equal(report.publicKeyPem.trim(), derivedPublic.trim(), 'the shown public key is not the stored private key\'s half');

    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no editor shows the public key');
    assert.equal(editor.document.uri.scheme, DOCUMENT_SCHEME, `the public key opened as ${editor.document.uri.toString()}, not read-only`);
    assert.equal(editor.document.isDirty, false, 'the public key document is dirty: closing it would ask to save');
    assert.equal(editor.document.getText().trim(), report.publicKeyPem.trim());
    assert.ok(!editor.document.getText().includes('PRIVATE KEY'), 'the private key was shown');
    assert.equal((await vscode.env.clipboard.readText()).trim(), report.publicKeyPem.trim());
  });
});
