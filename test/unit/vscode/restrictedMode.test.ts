// Restricted Mode in the manifest (docs/security.md): the settings that route secrets or let a spec file
// read this machine's environment are restricted in untrusted workspaces and application-scoped, the
// capability says what Restricted Mode allows, and every menu entry that runs workspace files asks
// for a trusted folder in each of its alternatives.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SECRET_ROUTING_SETTINGS } from '../../../src/core/settingValues';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { supported: string; description: string; restrictedConfigurations: string[] } };
  contributes: { menus: Record<string, { command: string; when?: string }[]> };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('Restricted Mode in the manifest', () => {
  it('restricts every secret-routing setting, the environment allow-list included', () => {
    assert.ok(SECRET_ROUTING_SETTINGS.includes('specs.allowedEnvironmentVariables'));
    for (const key of SECRET_ROUTING_SETTINGS) assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(`computeToolkit.${key}`), key);
  });

  it('says what Restricted Mode allows and refuses', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    const description = nls[manifest.capabilities.untrustedWorkspaces.description.replace(/%/g, '')] ?? '';
    assert.match(description, /Restricted Mode/);
    assert.match(description, /Deploy, Update and Run on GPU/);
  });

  it('shows Run on GPU in menus only in a trusted folder, in every alternative of its when clause', () => {
    const entries = Object.values(manifest.contributes.menus).flat().filter((entry) => entry.command === 'computeToolkit.jobs.runOnGpu' || entry.command === 'computeToolkit.jobs.runAgain');
    assert.ok(entries.length > 0);
    for (const entry of entries) {
      for (const alternative of (entry.when ?? '').split('||')) assert.match(alternative, /\bisWorkspaceTrusted\b/, `${entry.command}: ${entry.when}`);
    }
  });
});
