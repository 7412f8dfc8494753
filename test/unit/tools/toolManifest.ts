// The manifest side of the tools: package.json's `languageModelTools` and `languageModelToolSets` are
// derived from src/core/tools (one source). manifest.test.ts checks they match; after changing a tool,
// run `npm run compile-tests && node out/test/unit/tools/toolManifest.js --write` to regenerate them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../../../src/core/tools/index';
import { inputSchemaOf } from '../../../src/core/tools/run';
import type { ToolDefinition } from '../../../src/core/tools/api';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const TOOL_SET_NAME = 'compute';

const ICON: Record<ToolDefinition['effect'], string> = { read: '$(server)', write: '$(credit-card)', destructive: '$(trash)' };

export function nlsKey(tool: ToolDefinition, field: 'displayName' | 'userDescription'): string {
  return `computeToolkit.tool.${tool.name}.${field}`;
}

export function manifestTools(): unknown[] {
  return TOOLS.map((tool) => ({
    name: tool.name,
    toolReferenceName: tool.toolReferenceName,
    displayName: `%${nlsKey(tool, 'displayName')}%`,
    userDescription: `%${nlsKey(tool, 'userDescription')}%`,
    modelDescription: tool.modelDescription,
    canBeReferencedInPrompt: true,
    icon: ICON[tool.effect],
    tags: ['compute', `compute-${tool.effect}`],
    inputSchema: inputSchemaOf(tool),
  }));
}

export function manifestToolSets(): unknown[] {
  return [{ name: TOOL_SET_NAME, description: '%computeToolkit.toolSet.description%', icon: '$(server)', tools: TOOLS.map((tool) => tool.name) }];
}

export function nlsEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const tool of TOOLS) {
    entries[nlsKey(tool, 'displayName')] = tool.displayName;
    entries[nlsKey(tool, 'userDescription')] = tool.userDescription;
  }
  return entries;
}

function write(): void {
  const manifestPath = path.join(ROOT, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes['languageModelTools'] = manifestTools();
  manifest.contributes['languageModelToolSets'] = manifestToolSets();
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const nlsPath = path.join(ROOT, 'package.nls.json');
  const nls = JSON.parse(readFileSync(nlsPath, 'utf8')) as Record<string, string>;
  writeFileSync(nlsPath, `${JSON.stringify({ ...nls, ...nlsEntries() }, null, 2)}\n`);
}

if (require.main === module && process.argv.includes('--write')) write();
