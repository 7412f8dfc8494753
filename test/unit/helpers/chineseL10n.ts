// The zh-cn twin of englishL10n.ts: Node unit tests of editor-layer wording get vscode.l10n.t looking
// the message up in the committed l10n/bundle.l10n.zh-cn.json (as VS Code does in a 简体中文 window) and
// `env.language` 'zh-cn', and nothing else of the editor API. A test file loads one of the two, first:
// `import '../helpers/chineseL10n';`. The in-host zh-cn phase checks the views themselves.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';

const bundle = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

function t(message: string | { message: string; args?: unknown[] }, ...args: unknown[]): string {
  const key = typeof message === 'string' ? message : message.message;
  const values = typeof message === 'string' ? args : (message.args ?? []);
  const text = Object.hasOwn(bundle, key) ? (bundle[key] ?? key) : key;
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => (values[Number(index)] === undefined ? whole : String(values[Number(index)])));
}

const ID = 'vscode-chinese-l10n';
const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolve = loader._resolveFilename;
if (!(ID in require.cache)) {
  loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? ID : resolve.call(this, request, ...rest);
  };
  const module = new Module(ID);
  module.exports = { l10n: { t }, env: { language: 'zh-cn' } };
  module.loaded = true;
  require.cache[ID] = module;
}
