// package.json declares exactly the tools src/core/tools defines (VS Code refuses to register a tool the
// manifest does not list, and a stale schema would mislead the model), with every %key% localised.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { manifestTools, manifestToolSets, nlsEntries, ROOT } from './toolManifest';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: Record<string, unknown> };
const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const regenerate = 'regenerate with: npm run compile-tests && node out/test/unit/tools/toolManifest.js --write';

describe('tool manifest', () => {
  it('languageModelTools and the "compute" tool set match the definitions', () => {
    assert.deepEqual(manifest.contributes['languageModelTools'], JSON.parse(JSON.stringify(manifestTools())), regenerate);
    assert.deepEqual(manifest.contributes['languageModelToolSets'], manifestToolSets(), regenerate);
  });

  it('every %key% in the manifest has an English string', () => {
    for (const [key, value] of Object.entries(nlsEntries())) assert.equal(nls[key], value, `${key}: ${regenerate}`);
    const text = JSON.stringify(manifest.contributes);
    for (const match of text.matchAll(/"%([^%"]+)%"/g)) assert.ok(nls[match[1]!] !== undefined, `package.nls.json lacks ${match[1]}`);
  });

  it('declares the MCP server provider and the model provider with its key command', () => {
    assert.deepEqual(manifest.contributes['mcpServerDefinitionProviders'], [{ id: 'computeToolkit.mcpServers', label: '%computeToolkit.mcp.label%' }]);
    const providers = manifest.contributes['languageModelChatProviders'] as { vendor: string; managementCommand: string }[];
    assert.equal(providers[0]?.vendor, 'compute-toolkit');
    assert.equal(providers[0]?.managementCommand, 'computeToolkit.secrets.setModelApiKey');
  });
});
