// The Tasks view with a heavy account (hundreds of ended tasks seeded into the sandbox): every active
// task is a root row, ended ones sit in a collapsed "Ended (N)" group that loads page by page until
// every one is reachable, and the view's filter finds tasks by name, status or GPU, ended ones too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../src/vscode/commandIds';
import type { ComputeApi, TreeRow } from '../../../src/vscode/views/index';
import type { TaskSeedResult } from '../../sandbox/compute/bulkTasks';
import { seedTasks } from '../sandboxInfo';
import { computeWithSandbox } from './computeTestApi';

const ENDED = 230;
const ENDED_GROUP = 'tasks/ended';
const LOAD_MORE = 'tasks/ended/more';

function endedCount(rows: readonly TreeRow[]): number {
  const group = rows.find((row) => row.id === ENDED_GROUP);
  assert.ok(group, `no Ended group among ${rows.map((row) => row.label).join(', ')}`);
  const match = /^Ended \(([\d,]+)\)$/.exec(group.label);
  assert.ok(match?.[1], `group label: ${group.label}`);
  return Number(match[1].replace(/,/g, ''));
}

describe('compute: Tasks tree with a heavy account', () => {
  let compute: ComputeApi;
  let seeded: TaskSeedResult;

  before(async function () {
    this.timeout(180_000);
    compute = await computeWithSandbox();
    seeded = await seedTasks({ running: 4, pending: 2, paused: 2, ended: ENDED });
    await compute.refresh('tasks');
  });

  after(async () => {
    await vscode.commands.executeCommand(Commands.tasksFilter, '');
  });

  it('every active task is a root row, before a collapsed Ended (N) group', async () => {
    const { rows } = await compute.snapshot('tasks');
    const ids = new Set(rows.map((row) => row.id));
    for (const id of [...seeded.ids.running, ...seeded.ids.pending, ...seeded.ids.paused]) assert.ok(ids.has(`task/${id}`), `active task ${id} is not a root row`);
    assert.ok(!rows.some((row) => row.contextValue === 'task.End'), 'no ended task among the root rows');
    assert.equal(rows.at(-1)?.id, ENDED_GROUP, 'the Ended group comes last');
    assert.ok(endedCount(rows) >= ENDED);
  });

  it('the Ended group loads 50 at a time with a Load more row, until every ended task is reachable', async function () {
    this.timeout(180_000);
    const groupChildren = async (): Promise<TreeRow[]> => (await compute.snapshot('tasks', { depth: 2 })).rows.find((row) => row.id === ENDED_GROUP)?.children ?? [];
    const total = endedCount((await compute.snapshot('tasks')).rows);
    let children = await groupChildren();
    // The first page (50), plus ended rows read before the seeding, which a refresh keeps.
    const firstRows = children.filter((row) => row.contextValue === 'task.End').length;
    assert.ok(firstRows >= 50 && firstRows < total, `first page: ${firstRows} rows of ${total}`);
    assert.equal(children.find((row) => row.id === LOAD_MORE)?.description, `showing ${firstRows} of ${total.toLocaleString('en-US')}`);
    for (let page = 0; page < 20 && children.some((row) => row.id === LOAD_MORE); page++) {
      await vscode.commands.executeCommand(Commands.tasksLoadMoreEnded);
      children = await groupChildren();
    }
    assert.ok(!children.some((row) => row.id === LOAD_MORE), 'no Load more row once everything is read');
    const shown = new Set(children.map((row) => row.id));
    assert.equal(shown.size, total, 'every ended task is a row, once');
    for (const id of seeded.ids.ended) assert.ok(shown.has(`task/${id}`), `ended task ${id} is not reachable`);
  });

  it('the filter narrows the active rows and finds ended tasks by id and by name', async () => {
    const endedId = `task/${seeded.ids.ended[0]}`;
    await vscode.commands.executeCommand(Commands.tasksFilter, String(seeded.ids.ended[0]));
    const byId = await compute.snapshot('tasks', { depth: 2 });
    const endedTask = byId.rows.find((row) => row.id === ENDED_GROUP)?.children?.find((row) => row.id === endedId);
    assert.ok(endedTask, 'the filter reads every ended page and finds the task by id');

    await vscode.commands.executeCommand(Commands.tasksFilter, endedTask.label);
    const byName = await compute.snapshot('tasks', { depth: 2 });
    assert.ok(!byName.rows.some((row) => row.contextValue?.startsWith('task.')), 'no active task has that name');
    const group = byName.rows.find((row) => row.id === ENDED_GROUP);
    assert.match(group?.label ?? '', /^Ended \(\d+ of [\d,]+ match\)$/);
    assert.ok(group?.children?.some((row) => row.id === endedTask.id), 'the ended task is found');
    assert.ok(group?.children?.every((row) => row.label === endedTask.label), 'only matching rows');

    await vscode.commands.executeCommand(Commands.tasksFilter, 'paused');
    const paused = await compute.snapshot('tasks');
    const active = paused.rows.filter((row) => row.contextValue?.startsWith('task.'));
    assert.ok(active.length >= 2 && active.every((row) => row.contextValue === 'task.Paused'), `rows: ${active.map((row) => row.contextValue).join(', ')}`);

    await vscode.commands.executeCommand(Commands.tasksFilter, '');
    assert.ok((await compute.snapshot('tasks')).rows.some((row) => row.contextValue === 'task.Running'), 'clearing the filter shows every active task again');
  });
});
