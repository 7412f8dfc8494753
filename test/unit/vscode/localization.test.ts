// Born localizable: every user-facing manifest string is a %key% found in package.nls.json, and the
// host's string bundle (l10n/bundle.l10n.json) holds exactly the vscode.l10n.t strings of src/vscode and
// the core's message templates (scripts/l10n-export.mjs).
// (The lint rule in eslint.config.mjs catches bare text in src/vscode: test/unit/lint.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

interface Manifest {
  l10n?: string;
  displayName: string;
  description: string;
  contributes: Record<string, unknown>;
}

/** Every string a manifest shows a person, with where it is. */
export function userFacingManifestStrings(manifest: Manifest): [string, string][] {
  const found: [string, string][] = [['displayName', manifest.displayName], ['description', manifest.description]];
  const shown = new Set(['title', 'category', 'name', 'contextualTitle', 'contents', 'label', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'altText', 'shortTitle']);
  const walk = (value: unknown, where: string, field: string | undefined): void => {
    if (typeof value === 'string') {
      if (field !== undefined && shown.has(field)) found.push([where, value]);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${where}[${index}]`, field === 'enumDescriptions' || field === 'markdownEnumDescriptions' ? field : undefined));
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        // A tool's input schema speaks to the model, and a tool's or tool set's `name` is its id.
        if (key === 'inputSchema' || (key === 'name' && /languageModelTool(Set)?s\[\d+\]$/.test(where))) continue;
        walk(child, `${where}.${key}`, key);
      }
    }
  };
  walk(manifest.contributes, 'contributes', undefined);
  return found;
}

describe('localization', () => {
  const manifest = readJson('package.json') as Manifest;
  const nls = readJson('package.nls.json') as Record<string, string>;

  it('every user-facing manifest string is a %key% that package.nls.json defines', () => {
    const strings = userFacingManifestStrings(manifest);
    assert.ok(strings.length > 60, `only ${strings.length} strings found: the walk is broken`);
    const bare = strings.filter(([, value]) => !/^%[\w.-]+%$/.test(value)).map(([where, value]) => `${where}: ${value}`);
    assert.deepEqual(bare, [], 'manifest strings without %key%');
    const undefinedKeys = strings.map(([, value]) => value.slice(1, -1)).filter((key) => typeof nls[key] !== 'string');
    assert.deepEqual(undefinedKeys, [], 'keys missing from package.nls.json');
  });

  it('the walk finds a bare title (the check can fail)', () => {
    const broken = { ...manifest, contributes: { commands: [{ command: 'x', title: 'Bare Title', category: '%command.category%' }] } };
    const bare = userFacingManifestStrings(broken).filter(([, value]) => !value.startsWith('%'));
    assert.deepEqual(bare, [['contributes.commands[0].title', 'Bare Title']]);
  });

  it('the manifest points VS Code at the host bundle, and the bundle matches the code', () => {
    assert.equal(manifest.l10n, './l10n');
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-export-'));
    try {
      // The same export as `npm run l10n:export`: the editor's texts and the core's message templates.
      const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'l10n-export.mjs'), '--outDir', outDir], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      const fresh = JSON.parse(fs.readFileSync(path.join(outDir, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
      const committed = readJson('l10n/bundle.l10n.json') as Record<string, string>;
      assert.deepEqual(Object.keys(committed).sort(), Object.keys(fresh).sort(), 'l10n/bundle.l10n.json is stale: run `npm run l10n:export`');
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});
