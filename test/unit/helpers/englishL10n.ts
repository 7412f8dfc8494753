// Node unit tests of editor-layer text (tree rows, wizards' validation, documents) load modules that
// word their text with vscode.l10n.t. Outside VS Code there is no `vscode` module: this gives them the
// English display language — the bundle's keys are the English text, so `t` only fills the {n}
// placeholders; `env.language` is 'en' — and nothing else of the editor API, so a module that needs
// more fails loudly.
// The display-language checks themselves run in the real VS Code (test/integration/l10n).
// Import it first: `import '../helpers/englishL10n';`.
import Module from 'node:module';

function t(message: string | { message: string; args?: unknown[] }, ...args: unknown[]): string {
  const text = typeof message === 'string' ? message : message.message;
  const values = typeof message === 'string' ? args : (message.args ?? []);
  const list = values.length === 1 && typeof values[0] === 'object' && values[0] !== null && !Array.isArray(values[0]) ? values[0] : values;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = (list as Record<string, unknown>)[key];
    return value === undefined ? whole : String(value);
  });
}

const ID = 'vscode-english-l10n';
const loader = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  _cache: Record<string, unknown>;
};
const resolve = loader._resolveFilename;
if (!(ID in require.cache)) {
  loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? ID : resolve.call(this, request, ...rest);
  };
  const module = new Module(ID);
  module.exports = { l10n: { t }, env: { language: 'en' } };
  module.loaded = true;
  require.cache[ID] = module;
}
