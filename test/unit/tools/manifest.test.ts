// package.json declares exactly the tools src/core/tools defines (VS Code refuses to register a tool the
// manifest does not list, and a stale schema would mislead the model), with every %key% localised.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TOOLS } from '../../../src/core/tools/index';
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

describe('chat skill', () => {
  const skills = manifest.contributes['chatSkills'] as { path: string }[];
  const text = readFileSync(path.join(ROOT, skills[0]!.path), 'utf8');

  it('has front matter whose name matches its folder, and a description', () => {
    const front = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(text);
    assert.ok(front, 'SKILL.md starts with name and description front matter');
    assert.equal(front[1], path.basename(path.dirname(skills[0]!.path)));
    assert.ok(front[2]!.length > 80);
  });

  it('names only tools that exist, and every write or destructive one', () => {
    const known = new Set(TOOLS.map((tool) => tool.name));
    const named = new Set([...text.matchAll(/`(compute_[a-z_]+)`/g)].map((match) => match[1]!));
    for (const name of named) assert.ok(known.has(name), `SKILL.md names an unknown tool ${name}`);
    for (const tool of TOOLS.filter((candidate) => candidate.effect !== 'read')) assert.ok(named.has(tool.name), `SKILL.md explains ${tool.name}`);
  });

  it('ships in the package (.vscodeignore allowlist), with the MCP server bundle', () => {
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!skills\/\*\*$/m);
    assert.match(ignore, /^!dist\/mcp\.js$/m);
  });
});
