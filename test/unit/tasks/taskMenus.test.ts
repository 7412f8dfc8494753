// Every Tasks view menu entry only where it applies: the package.json `when` clauses evaluated against
// the contextValue of a task row in each state (src/vscode/tasks/taskContextValue.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { taskContextValue, type TaskRowTag } from '../../../src/vscode/tasks/taskContextValue';
import type { TaskStatus } from '../../../src/core/tasks/operations';

interface MenuEntry { command: string; when?: string; group?: string }

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { menus: Record<string, MenuEntry[]> } };
const itemMenus = manifest.contributes.menus['view/item/context'] ?? [];

/** The `when` forms our menus use: `a == b`, `a =~ /re/` joined by `&&` (anything else fails the test). */
function holds(when: string, context: Record<string, string>): boolean {
  return when.split('&&').every((clause) => {
    const term = clause.trim();
    const equal = /^([\w.]+) == ([\w.-]+)$/.exec(term);
    if (equal) return context[equal[1] ?? ''] === equal[2];
    const match = /^([\w.]+) =~ \/(.*)\/$/.exec(term);
    if (match) return new RegExp(match[2] ?? '').test(context[match[1] ?? ''] ?? '');
    throw new Error(`a when clause this test cannot read: ${term}`);
  });
}

function menuOf(status: TaskStatus, running: number, tags: TaskRowTag[] = []): Set<string> {
  const viewItem = taskContextValue({ status, points: 2, runing_points: running }, tags);
  const context = { view: 'computeToolkit.tasks', viewItem };
  return new Set(itemMenus.filter((entry) => entry.group !== 'inline' && holds(entry.when ?? '', context)).map((entry) => entry.command.replace('computeToolkit.', '')));
}

describe('Tasks view menus per task state', () => {
  it('a healthy running task: pause, scale, stop, set a timer; no Cancel Pause Timer, no Explain Failure, no Recover', () => {
    const menu = menuOf('Running', 2);
    for (const command of ['tasks.pause', 'tasks.pauseAfter', 'tasks.changePoints', 'tasks.stop', 'tasks.update', 'tasks.detail', 'tasks.showEvents']) assert.ok(menu.has(command), command);
    for (const command of ['tasks.cancelPauseTimer', 'tasks.explainFailure', 'tasks.recover']) assert.ok(!menu.has(command), command);
  });

  it('a running task with a pause timer offers Cancel Pause Timer', () => {
    assert.ok(menuOf('Running', 2, ['pauseTimer']).has('tasks.cancelPauseTimer'));
    assert.ok(menuOf('Running', 2, ['pauseTimer']).has('tasks.pause'));
  });

  it('a running task short of nodes, or a failed one, offers Explain Failure', () => {
    assert.ok(menuOf('Running', 1).has('tasks.explainFailure'));
    assert.ok(menuOf('Running', 1).has('tasks.pause'), 'an unhealthy running task can still be paused');
    assert.ok(menuOf('Other', 0).has('tasks.explainFailure'));
    assert.ok(!menuOf('Other', 0).has('tasks.pause'));
  });

  it('a paused task: recover, scale, stop; no pause, no timer', () => {
    const menu = menuOf('Paused', 0);
    for (const command of ['tasks.recover', 'tasks.changePoints', 'tasks.stop']) assert.ok(menu.has(command), command);
    for (const command of ['tasks.pause', 'tasks.pauseAfter', 'tasks.cancelPauseTimer', 'tasks.explainFailure']) assert.ok(!menu.has(command), command);
  });

  it('an ended task: details only', () => {
    const menu = menuOf('End', 0);
    for (const command of ['tasks.pause', 'tasks.recover', 'tasks.stop', 'tasks.changePoints', 'tasks.update', 'tasks.pauseAfter', 'tasks.cancelPauseTimer']) assert.ok(!menu.has(command), command);
    assert.ok(menu.has('tasks.detail'));
  });

  it('every task-row entry names the tasks view and a task row', () => {
    for (const entry of itemMenus.filter((candidate) => candidate.command.startsWith('computeToolkit.tasks.') && candidate.command !== 'computeToolkit.tasks.openServiceUrl')) {
      assert.match(entry.when ?? '', /view == computeToolkit\.tasks && viewItem =~ \/\^task\\\./, entry.command);
    }
  });
});
