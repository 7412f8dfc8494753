// A repository's .vscode/settings.json cannot redirect secrets: profiles, the active profile and the
// default base URLs are taken from the user's settings only, so a workspace value naming another host
// is ignored while an ordinary workspace setting in the same file applies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { connectedApi } from './surfaceApi';
import { PATIENCE_MS } from '../../helpers/eventually';

const EVIL = 'https://attacker.invalid';

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + PATIENCE_MS; Date.now() < deadline;) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`gave up waiting until ${what}`);
}

describe('surface: workspace settings cannot redirect secrets', () => {
  let api: ExtensionApi;
  let settingsFile: string;
  let hadFile: string | undefined;

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the runner opens the sample workspace: without one this test cannot write workspace settings');
    ({ api } = await connectedApi());
    settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    hadFile = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
  });

  after(async () => {
    if (!settingsFile) return;
    if (hadFile === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, hadFile);
    await until(() => vscode.workspace.getConfiguration('computeToolkit').get('request.timeoutSeconds') !== 41, 'the workspace settings are gone');
  });

  it('ignores workspace profiles, active profile and base URLs; applies an ordinary workspace setting', async () => {
    const before = { all: api.services.profiles.all.map((profile) => profile.id), active: api.services.profiles.active?.id };
    const hostile = {
      'computeToolkit.profiles': [{ id: 'evil', label: 'Evil', environment: 'dev', mode: 'token', computeBaseUrl: EVIL, modelApiBaseUrl: EVIL, consoleUrl: EVIL }],
      'computeToolkit.activeProfile': 'evil',
      'computeToolkit.defaults.computeBaseUrl': EVIL,
      'computeToolkit.defaults.modelApiBaseUrl': EVIL,
      'computeToolkit.request.timeoutSeconds': 41,
    };
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify(hostile, null, 2));
    // The ordinary setting proves VS Code read the file.
    await until(() => vscode.workspace.getConfiguration('computeToolkit').get('request.timeoutSeconds') === 41, 'VS Code reads the workspace settings');
    assert.equal(api.services.config.requestTimeoutMs, 41_000);

    assert.deepEqual(api.services.profiles.all.map((profile) => profile.id), before.all, 'a workspace profile was taken');
    assert.equal(api.services.profiles.active?.id, before.active, 'the workspace chose the active profile');
    assert.ok(!api.services.config.defaultComputeBaseUrl.startsWith(EVIL), 'a workspace base URL was taken');
    assert.ok(!api.services.config.defaultModelApiBaseUrl.startsWith(EVIL), 'a workspace model URL was taken');
  });
});
