// Callers' guard (one wizard style; the safe answer is the default where money is spent):
// - a function that asks two or more questions in a row does it through ui/multiStepInput (title, step
//   count, Back), never as a sequence of raw vscode.window pickers and input boxes (or an "asker" object);
// - no modal dialog offers an action that spends (Create, Deploy, Run, Update, Expand, Change Node Count,
//   Send Update, Retry a transfer): a modal's first button is its default, so Enter would spend. Those
//   go-aheads are reviews (confirmSpend / showReview) whose highlighted answer is Cancel.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const ASKING = /^(showInputBox|showQuickPick|createQuickPick|createInputBox|pick|input)$/;

/** Multi-question flows not moved onto ui/multiStepInput yet, each with why (the list only shrinks). */
const NOT_YET_MIGRATED = new Map<string, string>([
  // A pick of what to act on (only when not given by a row) and then one question: moves next.
  ['src/vscode/deployments/commands.ts#Commands.deploymentsSetIdlePause', 'a deployment, then its idle minutes'],
  ['src/vscode/deployments/commands.ts#Commands.deploymentsSetKey', 'a deployment, then its API key'],
  ['src/vscode/nas/nasCommands.ts#Commands.nasRename', 'Rename: a volume, then its name'],
  ['src/vscode/nas/nasCommands.ts#Commands.nasDelete', 'Delete: a volume, then its name typed to confirm'],
  ['src/vscode/profiles/profileCommands.ts#Commands.profileEdit', 'a profile, then one field'],
  ['src/vscode/tasks/taskCommands.ts#confirmStop', 'Stop: Pause or Stop, then the name typed to confirm'],
  ['src/vscode/tasks/taskCommands.ts#pickNodeTarget', 'a task, then one of its nodes'],
]);

function isAskingCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || !ASKING.test(callee.name.text)) return false;
  const receiver = callee.expression.getText();
  return receiver === 'vscode.window' || /asker$/i.test(receiver);
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isVariableDeclaration(node.parent) || (ts.isPropertyAssignment(node.parent) && node.parent.name.getText() !== 'create')) return node.parent.name.getText();
  // A command table entry's handler: named by its command id ({ id: Commands.x, … } or entry(Commands.x, …)).
  for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
    if (ts.isObjectLiteralExpression(up)) {
      const id = up.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'id');
      if (id) return id.initializer.getText();
    }
    if (ts.isCallExpression(up) && up.arguments[0]?.getText().startsWith('Commands.')) return up.arguments[0].getText();
  }
  return `line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

/** Per function of `file`: how many questions it asks in a row (raw pickers, or same-file functions that ask). */
function rawSequences(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const functions: ts.FunctionLikeDeclaration[] = [];
  const collect = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) functions.push(node);
    ts.forEachChild(node, collect);
  };
  collect(source);
  /** Calls made by `fn` itself (not by functions nested in it). */
  const ownCalls = (fn: ts.FunctionLikeDeclaration): ts.CallExpression[] => {
    const calls: ts.CallExpression[] = [];
    const walk = (node: ts.Node): void => {
      if (node !== fn && (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node))) return;
      if (ts.isCallExpression(node)) calls.push(node);
      ts.forEachChild(node, walk);
    };
    walk(fn);
    return calls;
  };
  const asks = new Set(functions.filter((fn) => ownCalls(fn).some(isAskingCall)).map(functionName));
  const found: string[] = [];
  for (const fn of functions) {
    const questions = ownCalls(fn).filter((call) => isAskingCall(call) || (ts.isIdentifier(call.expression) && asks.has(call.expression.text) && call.expression.text !== functionName(fn)));
    if (questions.length >= 2) found.push(`${path}#${functionName(fn)}`);
  }
  return found;
}

const SPENDING_ACTION = /^(Create|Deploy|Run|Update|Expand|Change Node Count|Send Update|Retry|Renew|Resume|Recover|Turn On|Rent|Buy)\b/;

/** Modal dialogs of `text` whose action buttons (literal or a const from vscode.l10n.t) look like spending. */
function spendingModals(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const consts = new Map<string, string>();
  const found: string[] = [];
  const literalOf = (node: ts.Expression): string | undefined => {
    if (ts.isIdentifier(node)) return consts.get(node.text);
    if (ts.isCallExpression(node) && node.expression.getText() === 'vscode.l10n.t' && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) return node.arguments[0].text;
    return ts.isStringLiteralLike(node) ? node.text : undefined;
  };
  const walk = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const value = literalOf(node.initializer);
      if (value !== undefined) consts.set(node.name.getText(), value);
    }
    if (ts.isCallExpression(node) && /^vscode\.window\.show(Warning|Information|Error)Message$/.test(node.expression.getText())) {
      const [, options, ...actions] = node.arguments;
      const modal = options !== undefined && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.getText().replace(/\s/g, '') === 'modal:true');
      if (modal) {
        for (const action of actions) {
          const label = literalOf(action);
          if (label !== undefined && SPENDING_ACTION.test(label)) found.push(`${path}: "${label}"`);
        }
      }
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return found;
}

describe('wizard and spending-review callers', () => {
  const sources = readSources(typeScriptFiles('src/vscode'));

  it('several questions in a row go through ui/multiStepInput (title, step count, Back)', () => {
    const raw = [...sources].flatMap(([path, text]) => rawSequences(path, text)).filter((where) => !NOT_YET_MIGRATED.has(where));
    assert.deepEqual(raw, [], 'raw showInputBox / showQuickPick sequences: move them onto MultiStepInput');
  });

  it('the not-yet-migrated list names flows that still exist', () => {
    const all = new Set([...sources].flatMap(([path, text]) => rawSequences(path, text)));
    for (const where of NOT_YET_MIGRATED.keys()) assert.ok(all.has(where), `${where} is migrated: take it off the list`);
  });

  it('no modal dialog offers an action that spends (Enter would press it)', () => {
    assert.deepEqual([...sources].flatMap(([path, text]) => spendingModals(path, text)), []);
  });

  it('the guards see what they look for', () => {
    const sequence = 'async function f() { const a = await vscode.window.showInputBox({}); const b = await pickPolicy(); }\nasync function pickPolicy() { return vscode.window.showQuickPick([]); }\nasync function g(asker) { await asker.pick(1); await asker.input(2); }';
    assert.deepEqual(rawSequences('x.ts', sequence), ['x.ts#f', 'x.ts#g']);
    const modal = "async function f() { const go = vscode.l10n.t('Deploy'); await vscode.window.showWarningMessage('q', { modal: true }, go); await vscode.window.showWarningMessage('q', { modal: true }, vscode.l10n.t('Stop Job')); }";
    assert.deepEqual(spendingModals('x.ts', modal), ['x.ts: "Deploy"']);
  });
});
