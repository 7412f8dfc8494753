// Spec files in a real VS Code against the sandbox, as a new user would use them: save a task as a
// file, edit node count + env + image, the plan names exactly those and their cost, the update
// applies them, a second plan finds nothing; a typo'd field and a memory in GB are flagged on their
// lines before anything is sent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { RecordedRequest } from '../../sandbox/types';
import { computeWithSandbox } from '../compute/computeTestApi';
import { nextEvent } from '../events';
import { extensionApi } from '../extensionApi';
import { sandboxUrl } from '../sandboxInfo';

async function sandboxRequests(): Promise<RecordedRequest[]> {
  return (await (await fetch(`${sandboxUrl()}/__sandbox/requests`)).json()) as RecordedRequest[];
}

function folder(): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(first, 'the test instance opens a workspace folder');
  return first;
}

/** The diagnostics of `uri` from the spec validator, once they are published. */
async function specDiagnostics(uri: vscode.Uri, atLeast: number): Promise<vscode.Diagnostic[]> {
  const current = () => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === vscode.l10n.t('Compute spec'));
  while (current().length < atLeast) await nextEvent(vscode.languages.onDidChangeDiagnostics, (event) => event.uris.some((changed) => changed.toString() === uri.toString()));
  return current();
}

async function replaceText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  await document.save();
}

describe('specs: task spec files', () => {
  let api: ExtensionApi;

  before(async () => {
    await computeWithSandbox();
    api = await extensionApi();
  });

  it('save a task as a file, edit nodes + env + image: the plan names exactly those and their cost; update applies; a second plan is empty', async function () {
    this.timeout(180_000);
    const region = (await api.compute.searchRegions()).find(({ region: candidate }) => candidate.inventory > 3);
    assert.ok(region, 'the sandbox has a region in stock');
    const name = `it-spec-${Date.now()}`;
    const taskId = await api.compute.createTask({ name, region: region.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688], points: 1, env: { MODE: 'prod', HF_TOKEN: 'hf_integrationtoken123' }, startCommand: '' });

    const uri = vscode.Uri.joinPath(folder(), `${name}.task.json`);
    // MODE picked to stay plain (the command's third argument answers the pick); the token stays a reference.
    assert.equal((await vscode.commands.executeCommand<vscode.Uri | undefined>('computeToolkit.spec.saveFromTask', taskId, uri, { plain: ['MODE'] }))?.toString(), uri.toString());
    const document = await vscode.workspace.openTextDocument(uri);
    const saved = JSON.parse(document.getText()) as { taskId: number; nodes: number; services: { image: string; env: Record<string, unknown> }[] };
    assert.equal(saved.taskId, taskId);
    assert.deepEqual(saved.services[0]!.env.HF_TOKEN, { secret: `${name}-HF_TOKEN` }, 'the token became a reference');
    assert.ok(!document.getText().includes('hf_integrationtoken123'), 'no secret in the file');

    const first = await api.specs.actions.plan(uri, { show: false });
    assert.deepEqual(first?.plan.changes, [], 'the saved file matches the task');

    saved.nodes = 3;
    saved.services[0]!.image = 'harbor.suanleme.cn/public-hub/dailyhot:2.0';
    saved.services[0]!.env = { ...saved.services[0]!.env, MODE: 'staging' };
    await replaceText(document, `${JSON.stringify(saved, null, 2)}\n`);

    const shown = await api.specs.actions.plan(uri);
    assert.ok(shown);
    assert.deepEqual(shown.plan.changes.map((change) => change.path), ['nodes', 'services[0].image', 'services[0].env.MODE']);
    assert.ok(shown.plan.costBefore !== undefined && shown.plan.costAfter !== undefined);
    assert.ok(Math.abs(shown.plan.costAfter - 3 * shown.plan.costBefore) < 1e-9, 'three nodes cost three times one');
    assert.match(shown.summary, /¥[\d.]+\/h → ¥[\d.]+\/h/);
    // The diff view is open with both sides, and neither shows the token.
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((candidate) => candidate.input instanceof vscode.TabInputTextDiff && candidate.label.includes(name));
    assert.ok(tab, 'the plan opens a diff editor');
    const input = tab.input as vscode.TabInputTextDiff;
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    const right = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.ok(right.includes('dailyhot:2.0') && left.includes('dailyhot:1.0'));
    assert.ok(!left.includes('hf_integrationtoken123') && !right.includes('hf_integrationtoken123'));

    assert.equal(await api.specs.actions.update(uri, { confirm: false }), 'sent');
    const live = await api.services.computeClient().call('task.detail', { task_id: taskId });
    assert.equal(live.points, 3);
    assert.equal(live.services[0]!.service_image, 'harbor.suanleme.cn/public-hub/dailyhot:2.0');
    assert.equal(live.services[0]!.env, 'MODE=staging\nHF_TOKEN=hf_integrationtoken123');
    const second = await api.specs.actions.plan(uri, { show: false });
    assert.deepEqual(second?.plan.changes, [], 'a second plan finds no difference');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('flags a typo in a field name and a memory in GB on their lines, and sends nothing (JSON and YAML)', async function () {
    this.timeout(180_000);
    const json = [
      '{',
      '  "kind": "task",',
      '  "name": "typo-check",',
      '  "nodes": 1,',
      '  "resource": { "gpu": "RTX 4090", "gpuCount": 1, "region": "beijing-jxq-p1", "memoryMi": "16GB" },',
      '  "services": [',
      '    { "name": "web", "imgae": "nginx:1.27", "image": "nginx:1.27", "ports": [80] }',
      '  ]',
      '}',
      '',
    ].join('\n');
    const yaml = ['kind: task', 'name: typo-check', 'nodes: 1', 'resource:', '  gpu: RTX 4090', '  gpuCount: 1', '  region: beijing-jxq-p1', '  memoryMi: 16GB', 'services:', '  - name: web', '    imgae: nginx:1.27', '    image: nginx:1.27', '    ports: [80]', ''].join('\n');
    for (const [file, text, typoLine, memoryLine] of [['typo-check.task.json', json, 6, 4], ['typo-check.task.yaml', yaml, 10, 7]] as const) {
      const uri = vscode.Uri.joinPath(folder(), file);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      if (file.endsWith('.yaml')) {
        const diagnostics = await specDiagnostics(uri, 2);
        const typo = diagnostics.find((diagnostic) => diagnostic.message.includes('imgae'));
        const memory = diagnostics.find((diagnostic) => diagnostic.message.includes('16384'));
        assert.equal(typo?.range.start.line, typoLine, `${file}: ${diagnostics.map((d) => `${d.range.start.line}: ${d.message}`).join(' | ')}`);
        assert.match(typo.message, /"image"/, 'suggests the field it most likely meant');
        assert.equal(memory?.range.start.line, memoryLine, file);
        assert.equal(memory.severity, vscode.DiagnosticSeverity.Error);
      } else {
        // JSON: VS Code's own validation (the contributed schema) flags both once; ours offers the fixes.
        const onLine = (line: number) => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.range.start.line === line);
        while (onLine(typoLine).length === 0 || onLine(memoryLine).length === 0) await nextEvent(vscode.languages.onDidChangeDiagnostics, (event) => event.uris.some((changed) => changed.toString() === uri.toString()));
        const fixes = async (line: number) => ((await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, onLine(line)[0]!.range)) ?? []).map((action) => action.title);
        assert.ok((await fixes(typoLine)).includes(vscode.l10n.t('Change to "{0}"', 'image')), 'suggests the field it most likely meant');
        assert.ok((await fixes(memoryLine)).includes(vscode.l10n.t('Write {0} (Mi)', '16384')), 'offers the memory in Mi');
      }

      assert.equal(await api.specs.actions.deploy(uri, { confirm: false }), undefined, 'an invalid file is not deployed');
      assert.equal(await api.specs.actions.plan(uri, { show: false }), undefined, 'an invalid file is not planned');
      // The log is newest first and bounded; background refreshes may add reads, so look for what this file would send.
      const sent = (await sandboxRequests()).filter((request) => request.body.includes('typo-check'));
      assert.deepEqual(sent.map((request) => request.path), [], 'nothing of this file reached the platform');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('JSON spec: a missing, an unknown and a GB field are flagged on their own ranges with the hint in the message; nothing squiggles the whole file', async function () {
    this.timeout(180_000);
    const lines = [
      '{',
      '  "kind": "task",',
      '  "name": "hint-check",',
      '  "nodess": 1,',
      '  "resource": { "gpuCount": "one", "region": "beijing-jxq-p1", "memoryMi": "16GB" },',
      '  "services": [{ "name": "web", "image": "nginx:1.27", "ports": [80] }]',
      '}',
      '',
    ];
    const uri = vscode.Uri.joinPath(folder(), 'hint-check.task.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(lines.join('\n')));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const rangeOf = (line: number, text: string) => new vscode.Range(line, lines[line]!.indexOf(text), line, lines[line]!.indexOf(text) + text.length);

    const ours = await specDiagnostics(uri, 3);
    const typo = ours.find((diagnostic) => diagnostic.range.isEqual(rangeOf(3, '"nodess"')));
    assert.ok(typo, ours.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`).join(' | '));
    assert.equal(typo.message, vscode.l10n.t('Unknown field "{0}" in {1}: did you mean "{2}"?', 'nodess', vscode.l10n.t('the file'), 'nodes'), 'the hint is in the message, in the display language');
    const memory = ours.find((diagnostic) => diagnostic.range.isEqual(rangeOf(4, '"16GB"')));
    assert.equal(memory?.message, vscode.l10n.t('Memory here is a number in Mi (binary megabytes), not text: write {0} for "{1}".', 16384, '16GB'));
    const missing = ours.find((diagnostic) => diagnostic.range.isEqual(rangeOf(4, '"resource"')));
    assert.equal(missing?.message, vscode.l10n.t('{0} needs "{1}".', 'resource', 'gpu'), 'a missing field is reported on the key of the object that lacks it');
    const fixes = ((await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, typo.range)) ?? []).map((action) => action.title);
    assert.ok(fixes.includes(vscode.l10n.t('Change to "{0}"', 'nodes')), 'the Quick Fix stays');

    // VS Code's own JSON validation answers too (the type of gpuCount); once it has, no diagnostic of any source covers more than one line.
    const editorOwn = () => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source !== vscode.l10n.t('Compute spec'));
    while (!editorOwn().some((diagnostic) => diagnostic.range.start.line === 4)) await nextEvent(vscode.languages.onDidChangeDiagnostics, (event) => event.uris.some((changed) => changed.toString() === uri.toString()));
    const all = vscode.languages.getDiagnostics(uri);
    assert.deepEqual(all.filter((diagnostic) => !diagnostic.range.isSingleLine).map((diagnostic) => diagnostic.message), [], 'nothing squiggles the whole file');
    assert.equal(all.filter((diagnostic) => diagnostic.range.start.line === 3).length, 1, 'the unknown field is reported once');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('New Spec from Template… writes a valid file that Deploy creates and then remembers', async function () {
    this.timeout(180_000);
    const uri = vscode.Uri.joinPath(folder(), `it-template-${Date.now()}.task.yaml`);
    await vscode.commands.executeCommand('computeToolkit.spec.newFromTemplate', 'jupyter', uri);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.getText(), /quay\.io\/jupyter/);
    const taskId = await api.specs.actions.deploy(uri, { confirm: false });
    assert.ok(typeof taskId === 'number');
    assert.match(document.getText(), new RegExp(`taskId: ${taskId}`), 'the file remembers the task id');
    const plan = await api.specs.actions.plan(uri, { show: false });
    assert.deepEqual(plan?.plan.changes, []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
