#!/usr/bin/env node
// Exports the one string bundle (l10n/bundle.l10n.json, docs/localization.md): every literal
// vscode.l10n.t text of src/vscode (@vscode/l10n-dev's extractor) plus every English template of the
// tables that word text outside the editor layer (TEMPLATE_TABLES: the core's message keys; the operation
// catalog's titles), which the editor looks up by that template at run time. So a core message is one line in its table plus its
// translation, and the zh-cn bundle translates core, editor and webview text alike.
//   node scripts/l10n-export.mjs [--outDir DIR]     (npm run l10n:export)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Tables of English templates (a module without imports, and the name of its exported table). */
export const TEMPLATE_TABLES = [{ file: 'src/core/errors/messages.ts', table: 'CORE_MESSAGES' }];

/** A template table's values, read from its TypeScript source (transpiled, evaluated without imports). */
export function readTemplates(file, table) {
  const ts = require('typescript');
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', outputText)(module, module.exports, () => {
    throw new Error(`${file} must not import anything: the l10n export reads it alone.`);
  });
  const templates = module.exports[table];
  if (typeof templates !== 'object' || templates === null) throw new Error(`${file} exports no ${table}.`);
  return Object.values(templates);
}

/**
 * Every operation's title in the catalog (src/core/compute/catalog.ts): the editor shows it in the display
 * language by looking it up in the bundle (src/vscode/requests/operationTitles.ts), so a new operation's
 * title is written once, in its area's operations.ts. The catalog imports its area files: esbuild bundles
 * it in memory (core imports nothing of the editor).
 */
export function catalogTitles() {
  const esbuild = require('esbuild');
  const built = esbuild.buildSync({ entryPoints: [path.join(root, 'src', 'core', 'compute', 'catalog.ts')], bundle: true, write: false, format: 'cjs', platform: 'node', logLevel: 'silent' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, require);
  return Object.values(module.exports.OPERATION_CATALOG).map((entry) => entry.title);
}

/**
 * Writes the bundle to `outDir`: @vscode/l10n-dev's export of the editor's literal texts (its order kept,
 * so re-exports diff small), then the tables' templates it does not already hold.
 */
export function exportBundle(outDir) {
  const cli = path.join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
  const result = spawnSync(process.execPath, [cli, 'export', '--outDir', outDir, path.join(root, 'src', 'vscode')], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vscode-l10n-dev export failed: ${result.stderr}`);
  const file = path.join(outDir, 'bundle.l10n.json');
  const bundle = JSON.parse(fs.readFileSync(file, 'utf8'));
  const templates = [...TEMPLATE_TABLES.flatMap(({ file: source, table }) => readTemplates(source, table)), ...catalogTitles()];
  for (const template of templates) if (!Object.hasOwn(bundle, template)) bundle[template] = template;
  fs.writeFileSync(file, JSON.stringify(bundle, undefined, 2));
  return bundle;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--outDir');
  const outDir = path.resolve(root, at > 0 ? (process.argv[at + 1] ?? 'l10n') : 'l10n');
  const bundle = exportBundle(outDir);
  console.info(`Wrote ${Object.keys(bundle).length} strings to ${path.join(outDir, 'bundle.l10n.json')}`);
}
