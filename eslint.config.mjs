// Lint rules that keep the layer boundaries: core and shared never see the editor or the DOM,
// the webview reaches the host only through src/shared.
import tseslint from 'typescript-eslint';

const noEditor = { name: 'vscode', message: 'Only src/vscode may import the editor API.' };

// The editor edge has one place for each thing (CONTRIBUTING.md): these selectors keep it that way.
const ID_MODULE = 'src/vscode/commandIds.ts';
const COMMAND_TABLE = 'src/vscode/commands/commandTable.ts';
const CONFIG = 'src/vscode/config.ts';
const PERSISTED_STATE = 'src/vscode/persistedState.ts';
// The persisted-state keys: ids too, kept in core so persistedState.ts sits one floor lower (commandIds.ts re-exports them).
const STATE_KEYS = 'src/core/stateKeys.ts';
const oneRegistrar = {
  selector: "CallExpression[callee.property.name=/^register(TextEditor)?Command$/]",
  message: 'Add a command as an entry of the command table (src/vscode/commands/commandTable.ts); only registerCommandTable registers.',
};
const oneIdModule = [
  { selector: 'Literal[value=/^computeToolkit\\./]', message: 'Take computeToolkit.* ids from src/vscode/commandIds.ts (persisted-state keys: src/core/stateKeys.ts).' },
  { selector: 'TemplateElement[value.raw=/^computeToolkit\\./]', message: 'Take computeToolkit.* ids from src/vscode/commandIds.ts (persisted-state keys: src/core/stateKeys.ts).' },
];
// Born localizable: user-facing text in src/vscode goes through vscode.l10n.t (docs/localization.md).
const TEXT = ':matches(Literal[value=/[A-Za-z]{2}/], TemplateLiteral:has(TemplateElement[value.raw=/[A-Za-z]{2}/]))';
const l10nMessage = 'User-facing text goes through vscode.l10n.t(...) (docs/localization.md).';
const dateMessage = 'Format dates with formatDateTime/formatTime (src/vscode/ui/dates.ts) and numbers with toLocaleString(vscode.env.language): the display language, not the system locale.';
const bornLocalizable = [
  { selector: `CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/] > ${TEXT}`, message: l10nMessage },
  { selector: `Property[key.name=/^(title|placeHolder|placeholder|prompt|tooltip|description|detail|label)$/] > ${TEXT}.value`, message: l10nMessage },
  { selector: `AssignmentExpression[left.property.name=/^(title|placeholder|tooltip|description|label|message|prompt)$/] > ${TEXT}.right`, message: l10nMessage },
  { selector: `NewExpression[callee.name=/TreeItem$/] > ${TEXT}`, message: l10nMessage },
  { selector: `CallExpression[callee.property.name='setStatusBarMessage'] > ${TEXT}`, message: l10nMessage },
  // Picker items given as strings: showQuickPick(['Stop', 'Keep']).
  { selector: `CallExpression[callee.property.name=/^show(QuickPick|InputBox)$/] > ArrayExpression > ${TEXT}`, message: l10nMessage },
  // Dates, times and counts in the display language, not the system's: src/vscode/ui/dates.ts.
  { selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length=0]', message: dateMessage },
  { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/] > Identifier.arguments:first-child[name='undefined']", message: dateMessage },
  { selector: ":matches(NewExpression, CallExpression)[callee.object.name='Intl'][callee.property.name=/^(DateTimeFormat|RelativeTimeFormat)$/]", message: dateMessage },
  { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][callee.object.type='NewExpression'][callee.object.callee.name='Date']", message: dateMessage },
];
// Prose anywhere in src/vscode: two words in a string or template are text someone reads, wherever it
// goes on to (a picker's prompt passed as an argument, a format helper's return, a document's line, an
// error's message). Not prose: vscode.l10n.t's own arguments, the log, imports, and the English log
// message an error class hands to super() (the user reads it worded from the error classification).
const PROSE = ':matches(Literal[value=/[A-Za-z]{2,} [A-Za-z]{2,}/], TemplateLiteral:has(> TemplateElement[value.raw=/[A-Za-z]{2,} [A-Za-z]{2,}/]))';
const NOT_PROSE = [
  ":not(CallExpression[callee.property.name='t'] > .arguments)",
  ':not(ImportDeclaration > *)',
  ':not(CallExpression[callee.object.name=/^(logger|log|console)$/] > .arguments)',
  ':not(CallExpression[callee.object.property.name=/^(logger|log)$/] > .arguments)',
  ":not(CallExpression[callee.type='Super'] > .arguments)",
  ':not(SwitchCase > .test)',
].join('');
const proseLocalizable = [
  { selector: `${PROSE}${NOT_PROSE}`, message: l10nMessage },
  // A format helper's or a document renderer's one-word text ("Nodes", "Clock").
  { selector: `ReturnStatement > Literal[value=/^[A-Z][a-z]{2,}$/]`, message: l10nMessage },
];
// The chat webview shows only strings of the bundle the host passes in (src/shared/webviewStrings.ts).
const webviewMessage = 'Webview text comes from the host\'s bundle: add a key to src/shared/webviewStrings.ts and its vscode.l10n.t in src/vscode/chat/webviewStrings.ts.';
const webviewText = [
  { selector: `CallExpression[callee.name='el'] > ${TEXT}:not(:first-child)`, message: webviewMessage },
  { selector: `CallExpression[callee.name='button'] > ${TEXT}:first-child`, message: webviewMessage },
  { selector: `Property[key.name=/^(title|ariaLabel|placeholder|label|alt)$/] > ${TEXT}.value`, message: webviewMessage },
  { selector: `AssignmentExpression[left.property.name=/^(textContent|innerText|title|placeholder|ariaLabel|label|value)$/] > ${TEXT}.right`, message: webviewMessage },
  { selector: `CallExpression[callee.property.name=/^(showFeedback|append|prepend|replaceChildren|createTextNode)$/] > ${TEXT}`, message: webviewMessage },
];
// The core's errors say what went wrong as message keys (src/core/errors/messages.ts) that the editor
// words in the display language from the one bundle (src/vscode/errors/errorWords.ts coreWords). The agent tools (src/core/tools) answer
// models only, so their errors stay English text (docs/localization.md).
const coreWordsMessage = "A core error takes its message and hint as keys: new ConfigError(coreText('…'), coreText('…')), the English template in src/core/errors/messages.ts, then npm run l10n:export and its zh-cn translation (docs/localization.md).";
const coreWords = [
  {
    selector: "NewExpression[callee.name='ConfigError'] > :matches(Literal, TemplateLiteral, BinaryExpression, ConditionalExpression:has(> :matches(Literal, TemplateLiteral)))",
    message: coreWordsMessage,
  },
];
// One wording path for errors (docs/localization.md, "Errors"): a notification goes through
// services.reportError (src/vscode/errors/reportError.ts), an error inside a sentence through errorText
// (src/vscode/errors/errorText.ts); neither a raw error.message nor showErrorMessage anywhere else.
const ERROR_TEXT = ":matches(CallExpression[callee.name='errorMessage'], MemberExpression[property.name='message'][object.name=/^(error|err|e|caught|cause|failure|reason)$/], MemberExpression[property.name='message'][object.type='TSAsExpression'])";
const rawErrorMessage = 'Word an error for the user with errorText(error) (src/vscode/errors/errorText.ts) or report it with services.reportError: a raw error.message skips the display language (docs/localization.md).';
const oneErrorPath = [
  { selector: `CallExpression[callee.property.name='t'] ${ERROR_TEXT}`, message: rawErrorMessage },
  { selector: `CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/] ${ERROR_TEXT}`, message: rawErrorMessage },
  { selector: `Property[key.name=/^(message|error|label|description|detail|tooltip)$/] > ${ERROR_TEXT}.value`, message: rawErrorMessage },
  { selector: `Property[key.name=/^(message|error)$/] > CallExpression.value > ${ERROR_TEXT}`, message: rawErrorMessage },
  { selector: `ReturnStatement > ${ERROR_TEXT}`, message: rawErrorMessage },
  { selector: `NewExpression[callee.name=/Error$/] > ${ERROR_TEXT}`, message: rawErrorMessage },
  { selector: `NewExpression[callee.name=/Error$/] > ConditionalExpression > ${ERROR_TEXT}`, message: rawErrorMessage },
  {
    selector: "NewExpression[callee.name='Error'] > CallExpression.arguments:first-child[callee.property.name='t']",
    message: 'A worded "not done" is new Refusal(vscode.l10n.t(…)) (src/vscode/errors/refusal.ts): reportError shows it as it is; a core failure takes message keys (docs/localization.md).',
  },
  {
    selector: "MemberExpression[property.name='showErrorMessage']",
    message: 'Report an error with services.reportError(error, context) (src/vscode/errors/reportError.ts); a worded refusal is reportError(new Refusal(text), context) (src/vscode/errors/refusal.ts), a notification of a kind goes through src/vscode/ui/notificationCenter.ts.',
  },
];
// Stored state is read and written through the typed, validated key table of src/vscode/persistedState.ts.
const oneStateStore = {
  selector: "MemberExpression[property.name='globalState']",
  message: 'Keep state through services.state (src/vscode/persistedState.ts): a key in its table, with a default and a validator.',
};
// The editor reaches the platform through the kinds' services (src/core/<area>/<kind>Service.ts), never the wire.
const oneServicePerKind = {
  selector: "CallExpression[callee.property.name='call']:matches([arguments.0.type='TemplateLiteral'], [arguments.0.value=/^[a-zA-Z]+\\.[a-zA-Z]+$/])",
  message: "Call the kind's service (src/core/<area>/<kind>Service.ts, built in src/vscode/client/computeServices.ts), not client.call('op'): it is the only caller of its operations and wakes the store (CONTRIBUTING.md).",
};
const oneSettingsReader = {
  selector: "CallExpression[callee.property.name='getConfiguration']",
  message: 'Read settings through Config (src/vscode/config.ts): defaults, clamps and the global-only rule live there.',
};

// Areas by domain (docs/areas.md): an area in src/vscode reaches another area only through that area's
// index.ts. `views` composes the three trees (resources, tasks, storage) and is their shared tree
// plumbing, so it may reach into them and they into it; the composition root (src/vscode/*.ts) and the
// shared plumbing folders (ui, errors, documents, log, client, commands, webviews) are not areas.
const AREAS = ['resources', 'tasks', 'storage', 'spend', 'requests', 'chat', 'ai', 'profiles', 'state', 'jobs', 'nas', 'specs', 'deployments'];
const areaMessage = (area) => `Reach the ${area} area through its index.ts (docs/areas.md), not its files.`;
function areaPatterns(self) {
  const others = AREAS.filter((area) => area !== self && !(self === 'views' && ['resources', 'tasks', 'storage'].includes(area)));
  return others.map((area) => ({ group: [`../${area}/*`, `!../${area}/index`], message: areaMessage(area) }));
}
// lazyCore.ts's promise: the compute core (crypto, undici, client) loads on first use, so the editor layer
// imports only types from core/compute; errors and the catalog (operations) are small and allowed.
const lazyCorePattern = {
  group: ['**/core/compute/*', '!**/core/compute/errors', '!**/core/compute/operations'],
  allowTypeImports: true,
  message: 'Import only types from core/compute in src/vscode; values come through computeCore() (src/vscode/lazyCore.ts).',
};
// core/specs/load.ts's promise: the specs core (ajv, yaml, the schema) loads on first use, so outside it
// only types come from core/specs, besides the library-free modules listed here.
const specsCoreFree = ['load', 'types', 'messages', 'fileAccess', 'editorOverlap', 'workerValidator', 'workerProtocol', 'recordedMessages'];
const lazySpecsPattern = (prefix) => ({
  group: [`${prefix}/*`, ...specsCoreFree.map((name) => `!${prefix}/${name}`)],
  allowTypeImports: true,
  message: 'Import only types from core/specs outside it; values come through specsCore() (src/core/specs/load.ts).',
});
const vscodeImportRules = (self) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: [lazyCorePattern, lazySpecsPattern('**/core/specs'), ...areaPatterns(self)] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.vscode-test/**', '*.vsix'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts', 'src/webview/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader] },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader, ...webviewText] },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/tools/**', STATE_KEYS],
    rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader, ...coreWords] },
  },
  { files: [STATE_KEYS], rules: { 'no-restricted-syntax': ['error', oneRegistrar, oneSettingsReader, ...coreWords] } },
  {
    files: ['src/vscode/**/*.ts'],
    ignores: [ID_MODULE, COMMAND_TABLE, CONFIG, PERSISTED_STATE],
    rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader, oneStateStore, oneServicePerKind, ...bornLocalizable, ...proseLocalizable, ...oneErrorPath] },
  },
  // The renderers and the reporter themselves, and the notification center that shows a kind's notices.
  {
    files: ['src/vscode/errors/**/*.ts', 'src/vscode/ui/notificationCenter.ts'],
    rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader, oneStateStore, oneServicePerKind, ...bornLocalizable, ...proseLocalizable] },
  },
  { files: [ID_MODULE], rules: { 'no-restricted-syntax': ['error', oneRegistrar, oneSettingsReader, oneStateStore, ...bornLocalizable] } },
  { files: [COMMAND_TABLE], rules: { 'no-restricted-syntax': ['error', ...oneIdModule, oneSettingsReader, oneStateStore, ...bornLocalizable] } },
  { files: [CONFIG], rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneStateStore, ...bornLocalizable] } },
  // The store's only text is what it logs about damaged stored values.
  { files: [PERSISTED_STATE], rules: { 'no-restricted-syntax': ['error', oneRegistrar, ...oneIdModule, oneSettingsReader, ...bornLocalizable] } },
  {
    files: ['src/core/**/*.ts', 'src/mcp/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noEditor] }],
      'no-restricted-globals': ['error', 'document', 'window', 'navigator'],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noEditor],
        patterns: [{ group: ['**/core/**', '**/vscode/**', 'node:*'], message: 'The webview talks to the host only through src/shared.' }],
      }],
    },
  },
  { files: ['src/vscode/**/*.ts'], rules: vscodeImportRules(undefined) },
  // The lazily loaded modules (src/core/lazyModules.ts, src/core/specs/load.ts; the helper is src/core/lazy.ts): the only require() of the sources.
  { files: ['src/core/lazyModules.ts', 'src/core/specs/load.ts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  { files: ['src/core/**/*.ts'], ignores: ['src/core/specs/**'], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [lazySpecsPattern('**/specs')] }] } },
  ...[...AREAS, 'views'].map((area) => ({ files: [`src/vscode/${area}/**/*.ts`], rules: vscodeImportRules(area) })),
);
