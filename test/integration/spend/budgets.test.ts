// Set Budget… and Request History inside a real VS Code against the sandbox: the form writes the
// profile's budget to the user's settings (validation, the spend beside the limit), the Spend page and
// the status bar show it, Enter on the auto-pause question keeps the safe choice, removal asks first;
// and the requests the task commands send are kept in the history with where they came from, while
// background reads are not, and nothing kept carries the token.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { BudgetPrompts } from '../../../src/vscode/spend/budgetForm';
import type { ActivityEntry } from '../../../src/vscode/requests/requestActivity';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';

/** Answers the form's pickers in order: each answer picks an item by its label (or types a value). */
function scripted(answers: ((items: readonly vscode.QuickPickItem[] | undefined, options: vscode.QuickPickOptions | vscode.InputBoxOptions) => unknown)[]) {
  const seen: { title: string | undefined; labels?: string[]; messages?: string[] }[] = [];
  const prompts: BudgetPrompts = {
    pick: async (items, options) => {
      seen.push({ title: options.title, labels: items.map((item) => item.label) });
      const answer = answers.shift();
      return answer ? (answer(items, options) as never) : undefined;
    },
    input: async (options) => {
      seen.push({ title: options.title });
      const answer = answers.shift();
      return answer ? (answer(undefined, options) as string | undefined) : undefined;
    },
  };
  return { prompts, seen };
}

const byLabel = (pattern: RegExp) => (items: readonly vscode.QuickPickItem[] | undefined) => {
  const found = items?.find((item) => pattern.test(item.label));
  assert.ok(found, `no item matching ${pattern}: ${items?.map((item) => item.label).join(' | ')}`);
  return found;
};

/** Types `text` into an input box: checks it with the box's own validation first, as VS Code would. */
const typed = (text: string, messages: string[]) => async (_items: unknown, options: vscode.InputBoxOptions | vscode.QuickPickOptions) => {
  const validate = (options as vscode.InputBoxOptions).validateInput;
  const result = validate ? await validate(text) : undefined;
  const message = typeof result === 'string' ? result : result?.message;
  if (message) messages.push(message);
  return typeof result === 'string' ? undefined : text;
};

describe('budgets: Set Budget… and the request history', () => {
  let api: ExtensionApi;
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('computeToolkit');

  before(async () => {
    await computeWithSandbox();
    api = await extensionApi();
  });

  afterEach(async () => {
    api.money.useBudgetPrompts(undefined);
    await settings().update('budgets.perProfile', undefined, vscode.ConfigurationTarget.Global);
  });

  it('sets, shows and removes a budget: validation, the spend beside the limit, removal asks first', async function () {
    this.timeout(60_000);
    const profile = api.services.profiles.active;
    assert.ok(profile);
    const messages: string[] = [];
    const { prompts, seen } = scripted([
      byLabel(/Daily limit/),
      typed('abc', messages), // refused: the box stays, nothing saved
      byLabel(/Daily limit/),
      typed('900,000', messages),
      byLabel(/Monthly limit/),
      typed('¥2000000.50', messages),
      byLabel(/When a limit is used up/),
      byLabel(/Warn only/),
      // Escape: the menu closes
    ]);
    api.money.useBudgetPrompts(prompts);
    const saved = (await vscode.commands.executeCommand('computeToolkit.spend.setBudget', profile.id)) as { dailyYuan?: number; monthlyYuan?: number; autoPause: boolean } | undefined;
    assert.deepEqual(saved && { dailyYuan: saved.dailyYuan, monthlyYuan: saved.monthlyYuan, autoPause: saved.autoPause }, { dailyYuan: 900_000, monthlyYuan: 2_000_000.5, autoPause: false });
    assert.equal(messages[0], 'Enter an amount in yuan, such as 100 or 99.50; leave it empty for no limit.');
    assert.match(messages[1] ?? '', /^Spent today ¥[\d,]+\.\d{2}: \d+% of ¥900,000\.00\.$/);
    const stored = settings().inspect<Record<string, unknown>>('budgets.perProfile')?.globalValue;
    assert.deepEqual(stored, { [profile.id]: { dailyYuan: 900_000, monthlyYuan: 2_000_000.5, autoPause: false } });
    const menu = seen.find((step) => step.labels?.some((label) => /Daily limit/.test(label)));
    assert.ok(menu?.labels?.some((label) => /Remove this budget/.test(label)) === false, 'no Remove before a budget exists');
    const question = seen.find((step) => step.labels?.includes('Warn only'));
    assert.deepEqual(question?.labels, ['Warn only', 'Pause the running tasks'], 'the safe choice comes first');

    // The Spend page and the status bar's tooltip show the limit beside the spend.
    const page = await api.money.openSpend();
    assert.ok(page);
    assert.match(page.budget[0] ?? '', /^Daily budget: ¥[\d,]+\.\d{2} of ¥900,000\.00 \(\d+%\)$/);
    assert.match(page.budget[2] ?? '', /When a budget is used up: warn only/);
    assert.match(api.money.statusBarTooltip(), /command:computeToolkit\.spend\.setBudget/);
    assert.match(api.money.statusBarTooltip(), /Daily budget/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Removal asks; "Keep" keeps it, "Remove" removes it.
    const removal = scripted([byLabel(/Remove this budget/), byLabel(/Keep the budget/), byLabel(/Remove this budget/), byLabel(/^Remove the budget$/)]);
    api.money.useBudgetPrompts(removal.prompts);
    const afterRemoval = await vscode.commands.executeCommand('computeToolkit.spend.setBudget', profile.id);
    assert.equal(afterRemoval, undefined);
    assert.equal(removal.seen.filter((step) => step.title?.startsWith('Remove the budget of')).length, 2);
    assert.deepEqual(settings().inspect<Record<string, unknown>>('budgets.perProfile')?.globalValue ?? {}, {});
  });

  it('Enter on the auto-pause question (the real picker) turns auto-pause off: the safe choice', async function () {
    this.timeout(PATIENCE_MS);
    const profile = api.services.profiles.active;
    assert.ok(profile);
    await settings().update('budgets.perProfile', { [profile.id]: { dailyYuan: 900_000, autoPause: true } }, vscode.ConfigurationTarget.Global);
    // The menu is answered by script (the auto-pause item, then Escape); only the question is VS Code's
    // own picker, and the test presses Enter on it until it has answered (no blind moves in a menu).
    let menus = 0;
    let question: Promise<unknown> | undefined;
    let answered = false;
    api.money.useBudgetPrompts({
      pick: (items, options) => {
        if (options.title?.startsWith('When a limit')) {
          question = Promise.resolve(vscode.window.showQuickPick(items, options)).finally(() => (answered = true));
          return question as never;
        }
        menus++;
        return Promise.resolve(menus === 1 ? byLabel(/When a limit is used up/)(items) : undefined) as never;
      },
      input: async () => undefined,
    });
    const running = Promise.resolve(vscode.commands.executeCommand('computeToolkit.spend.setBudget', profile.id));
    const autoPause = (): unknown => (settings().inspect<Record<string, { autoPause?: boolean }>>('budgets.perProfile')?.globalValue ?? {})[profile.id]?.autoPause;
    await waitUntil('the auto-pause question to show', () => question !== undefined);
    await waitUntil('Enter to answer the question', async () => {
      if (!answered) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return answered;
    }, { everyMs: 150 });
    await running;
    assert.equal(autoPause(), false, 'Enter on the question kept tasks running (warn only)');
    assert.equal(menus, 2, 'the menu showed again after the answer, then Escape ended the form');
  });

  it('the history keeps what Pause Task sent, saying which command, and a background write; background reads are not kept; never the token', async function () {
    this.timeout(120_000);
    const profile = api.services.profiles.active;
    assert.ok(profile);
    const client = api.services.computeClient();
    const task = (await client.call('task.list', { type: 'Deployment', status: 'Running' })).results[0];
    assert.ok(task, 'the sandbox has a running task');
    const stored = (): ActivityEntry[] => (api.services.context.globalState.get<Record<string, ActivityEntry[]>>('requestActivity.v1') ?? {})[profile.id] ?? [];
    const before = stored().length > 0 ? (stored()[0]?.at ?? 0) : 0;
    await vscode.commands.executeCommand('computeToolkit.tasks.pause', task.task_id);
    // Outside any command: a write in the background is kept, and says so.
    await client.call('task.recover', { task_id: task.task_id });
    // The history writes after the answer: poll (bounded) until both are there.
    for (const deadline = Date.now() + PATIENCE_MS; !stored().some((entry) => entry.operation === 'task.recover' && entry.at >= before) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const fresh = stored().filter((entry) => entry.at >= before);
    const pause = fresh.find((entry) => entry.operation === 'task.pause');
    const recover = fresh.find((entry) => entry.operation === 'task.recover');
    assert.ok(pause && recover, JSON.stringify(fresh.slice(0, 5)));
    assert.deepEqual([pause.source, pause.sourceName, pause.method, pause.outcome], ['command', 'computeToolkit.tasks.pause', 'POST', 'ok']);
    assert.deepEqual([recover.source, recover.sourceName], ['background', undefined]);
    assert.equal(pause.status, 200);
    assert.ok(pause.at >= before && pause.elapsedMs >= 0);

    // The test's own task.list above ran outside any command: a background read, not kept.
    assert.ok(!fresh.some((entry) => entry.operation === 'task.list' && entry.source === 'background'));
    const token = await api.services.profiles.getSecret(profile.id, 'apiToken');
    assert.ok(token);
    assert.ok(!JSON.stringify(api.services.context.globalState.get('requestActivity.v1')).includes(token), 'no token in the stored history');
  });
});
