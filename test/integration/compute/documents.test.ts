// Read-only documents of the compute area: task detail JSON and the reusable node log.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComputeApi, TreeRow } from '../../../src/vscode/compute/index';
import { computeWithSandbox } from './computeTestApi';

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

  it('node log opens one reusable log document with the node’s lines', async () => {
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

    const secondName = second?.label ?? '?';
    const changed = textChange(editor.document.uri, (next) => next.includes(secondName));
    try {
      const again = await compute.openNodeLog(target(second));
      assert.equal(again.document.uri.toString(), editor.document.uri.toString(), 'the same document is reused for another node');
      // The workbench re-reads a refreshed virtual document asynchronously: wait for the new text.
      if (!again.document.getText().includes(secondName)) await changed.done;
      assert.ok(again.document.getText().includes(secondName), 'and now shows the other node');
    } finally {
      changed.dispose();
    }
  });
});
