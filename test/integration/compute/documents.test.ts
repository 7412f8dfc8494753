// Read-only documents of the compute area: task detail JSON and the reusable node log.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComputeApi, TreeRow } from '../../../src/vscode/views/index';
import { computeWithSandbox, findRow, refreshUntil } from './computeTestApi';

/** The number at the end of a row id such as `task/1229831/node/880001`. */
function trailingId(row: TreeRow | undefined, kind: string): number {
  const match = row?.id?.match(new RegExp(`(?:^|/)${kind}/(\\d+)$`));
  assert.ok(match?.[1], `row id ${row?.id} does not end with /${kind}/<id>`);
  return Number(match[1]);
}

/** `done` resolves when the document's text changes to something `accept` likes (bounded by mocha's timeout). */
function textChange(uri: vscode.Uri, accept: (text: string) => boolean): { done: Promise<void>; dispose(): void } {
  let subscription: vscode.Disposable | undefined;
  const done = new Promise<void>((resolve) => {
    subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() === uri.toString() && accept(event.document.getText())) resolve();
    });
  });
  return { done, dispose: () => subscription?.dispose() };
}

describe('compute: detail and log documents', () => {
  let compute: ComputeApi;
  let serving: TreeRow;

  before(async () => {
    compute = await computeWithSandbox();
    await compute.refresh('tasks');
    const { rows } = await compute.snapshot('tasks', { depth: 3 });
    const found = rows.find((row) => row.label === 'qwen3-32b-serving');
    assert.ok(found, 'the seeded running task is listed');
    serving = found;
  });

  it('task detail opens a read-only JSON document with the task id', async () => {
    const taskId = trailingId(serving, 'task');
    const editor = await compute.openTaskDetail(taskId);
    const detail = JSON.parse(editor.document.getText()) as { task_id?: unknown; task_name?: unknown; status?: unknown };
    assert.equal(detail.task_id, taskId);
    assert.equal(detail.task_name, 'qwen3-32b-serving');
    assert.equal(editor.document.languageId, 'json');
    assert.ok(!['file', 'untitled'].includes(editor.document.uri.scheme), `a virtual document, not ${editor.document.uri.scheme}`);
  });

  it('node log opens one document per node, named after it, at its last line, following', async () => {
    const taskId = trailingId(serving, 'task');
    const service = serving.children?.find((row) => row.contextValue === 'service');
    const nodes = serving.children?.find((row) => row.contextValue === 'nodes')?.children ?? [];
    assert.ok(nodes.length >= 2, 'the seeded task runs two nodes');
    const [first, second] = nodes;
    const target = (node: TreeRow | undefined) => ({
      taskId,
      taskName: serving.label,
      pointId: trailingId(node, 'node'),
      nodeName: node?.label ?? '',
      serviceId: trailingId(service, 'service'),
      serviceName: service?.label ?? '',
    });

    const editor = await compute.openNodeLog(target(first));
    const text = editor.document.getText();
    // The seeded task has run for hours: the platform returns the latest lines, here its health checks.
    assert.ok(text.split('\n').filter((line) => /GET \/health 200/.test(line)).length >= 10, `log lines missing:\n${text.slice(0, 500)}`);
    assert.ok(text.includes(first?.label ?? '?'), 'the header names the node');
    assert.equal(editor.document.languageId, 'log');
    assert.ok(editor.document.uri.path.endsWith(`/${first?.label}.log`), `named after the node: ${editor.document.uri.path}`);
    assert.equal(editor.selection.active.line, editor.document.lineCount - 1, 'opens at the last line');
    assert.match(text, /following while the node runs/);
    assert.equal(compute.isFollowingNodeLog(target(first)), true);

    const other = await compute.openNodeLog(target(second));
    assert.notEqual(other.document.uri.toString(), editor.document.uri.toString(), 'each node has its own document');
    assert.ok(other.document.uri.path.endsWith(`/${second?.label}.log`), other.document.uri.path);
    assert.ok(other.document.getText().includes(second?.label ?? '?'));
    assert.ok(!other.document.getText().includes(`Node ${first?.label} `), 'the other node’s header is not mixed in');

    // A follow round keeps both documents open and followed while the task runs.
    await compute.followNodeLogs();
    assert.equal(compute.isFollowingNodeLog(target(first)), true);
    assert.equal(compute.isFollowingNodeLog(target(second)), true);
  });

  it('the header says when following stops because the task ended', async function () {
    this.timeout(180_000);
    const choices = await compute.searchRegions();
    const region = choices.find((choice) => choice.region.inventory > 0)?.region;
    assert.ok(region, 'an in-stock region');
    const name = `it-nodelog-${Date.now()}`;
    const taskId = await compute.createTask({ name, region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688], points: 1 });
    const running = await refreshUntil(compute, 'tasks', (snapshot) => {
      const row = snapshot.rows.find((candidate) => candidate.id === `task/${taskId}`);
      const nodesGroup = row?.children?.find((child) => child.contextValue === 'nodes');
      return row?.contextValue === 'task.Running' && (nodesGroup?.children ?? []).some((node) => node.contextValue === 'node');
    }, { depth: 3, what: 'the new task runs a node' });
    const row = running.rows.find((candidate) => candidate.id === `task/${taskId}`);
    const node = row?.children?.find((child) => child.contextValue === 'nodes')?.children?.find((child) => child.contextValue === 'node');
    const service = row?.children?.find((child) => child.contextValue === 'service');
    const target = { taskId, taskName: name, pointId: trailingId(node, 'node'), nodeName: node?.label ?? '', serviceId: trailingId(service, 'service'), serviceName: service?.label ?? '' };
    const editor = await compute.openNodeLog(target);
    assert.equal(compute.isFollowingNodeLog(target), true);

    await compute.stopTask(taskId);
    // An ended task moves to the Ended group (depth 2 expands it, so the view knows its status).
    await refreshUntil(compute, 'tasks', (snapshot) => findRow(snapshot.rows, (candidate) => candidate.id === `task/${taskId}`)?.contextValue === 'task.End', { what: 'the task ends', depth: 2 });
    // The follower's own poll may see the node gone before the task's end reaches the store: either is
    // the task's end, worded (never the platform's "End").
    const endedLine = /stopped following: the (task ended|node ended \(Ended\))$/;
    const stopped = textChange(editor.document.uri, (next) => endedLine.test(next.split('\n')[1] ?? ''));
    try {
      await compute.followNodeLogs();
      if (!/stopped following/.test(editor.document.getText())) await stopped.done;
    } finally {
      stopped.dispose();
    }
    assert.match(editor.document.getText().split('\n')[1] ?? '', endedLine, JSON.stringify(editor.document.getText().slice(0, 400)));
    assert.equal(compute.isFollowingNodeLog(target), false);

    // The ended task's port no longer reads "no public URL yet".
    const ended = await compute.snapshot('tasks', { depth: 4 });
    const port = findRow(ended.rows, (candidate) => candidate.id === `task/${taskId}`)?.children?.find((child) => child.contextValue === 'service')?.children?.[0];
    assert.ok(port, 'the ended task still lists its port');
    assert.doesNotMatch(port.description ?? '', /yet/);
    assert.match(port.description ?? '', /task ended/);
  });
});
