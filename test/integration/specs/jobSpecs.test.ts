// Job spec files in a real VS Code against the sandbox: the CodeLens row of a job spec (Validate, Plan,
// Deploy; after Deploy, Open Live and Stop), Plan through its CodeLens shows what would be created and
// its cost, Deploy through its CodeLens creates the job and the file remembers the id, and Save as
// Spec File… on a Jobs view row writes a job spec with the credential as a reference. In a *.json spec
// a schema problem shows once (VS Code's JSON validation), with our Quick Fix on it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { computeWithSandbox } from '../compute/computeTestApi';
import { nextEvent } from '../events';
import { extensionApi } from '../extensionApi';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';

function folder(): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(first, 'the test instance opens a workspace folder');
  return first;
}

/** The CodeLens row once it says what `wanted` expects (a deadline, not a count of looks: a busy machine looks less often). */
async function lenses(uri: vscode.Uri, wanted: (titles: string[]) => boolean): Promise<vscode.CodeLens[]> {
  return waitUntil('the CodeLens row', async () => {
    const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
    const ours = found.filter((lens) => lens.command?.command.startsWith('computeToolkit.spec.'));
    return wanted(ours.map((lens) => lens.command!.title)) && ours;
  }, { everyMs: 100 });
}

const titled = (row: vscode.CodeLens[], word: string): vscode.CodeLens => {
  const lens = row.find((candidate) => candidate.command!.title.includes(word));
  assert.ok(lens, `a ${word} lens in ${row.map((candidate) => candidate.command!.title).join(', ')}`);
  return lens;
};

describe('specs: job spec files', () => {
  let api: ExtensionApi;

  before(async () => {
    await computeWithSandbox();
    api = await extensionApi();
  });

  it('CodeLens Plan shows what would be created and its cost; CodeLens Deploy creates the job and the file remembers it; Save as Spec File… on the job writes a reference, not the token', async function () {
    this.timeout(120_000);
    const offer = (await api.compute.searchRegions()).find(({ device, region }) => device.gpu_count === 1 && region.inventory > 2);
    assert.ok(offer, 'the sandbox has a 1-GPU offer in stock');
    const name = `it-job-${Date.now()}`;
    await api.specs.secrets.store(`${name}-token`, 'hf_integrationjobsecret42');
    const spec = {
      kind: 'job',
      name,
      resource: { gpu: offer.device.gpu_name, gpuCount: 1, region: offer.region.region, device: offer.device.device_name },
      completions: 3,
      parallelism: 2,
      timeoutSeconds: 900,
      services: [{ name: 'main', image: 'pytorch/pytorch:2.4', command: ['/bin/sh', '-c'], args: ['echo done'], env: { MODE: 'batch', HF_TOKEN: { secret: `${name}-token` } } }],
    };
    const uri = vscode.Uri.joinPath(folder(), `${name}.job.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(spec, null, 2)}\n`));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);

    const before = await lenses(uri, (titles) => titles.some((title) => title.includes('Deploy')));
    assert.ok(!before.some((lens) => lens.command!.title.includes('Update')), 'a job spec has no Update');

    // Plan through the CodeLens: a read-only plan document with what would be created and the cost.
    const plan = titled(before, 'Plan').command!;
    await vscode.commands.executeCommand(plan.command, ...(plan.arguments ?? []));
    const planEditor = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'compute-toolkit' && editor.document.getText().includes(name));
    assert.ok(planEditor, 'the plan opens beside the file');
    const planText = planEditor.document.getText();
    assert.match(planText, /completions: 3/);
    assert.match(planText, /parallelism: 2/);
    assert.match(planText, /¥[\d.]+\/h/, 'cost per hour');
    assert.match(planText, /pytorch\/pytorch:2\.4/);
    assert.match(planText, new RegExp(`«secret: ${name}-token»`));
    assert.ok(!planText.includes('hf_integrationjobsecret42'), 'the plan never shows a secret');
    const shown = await api.specs.actions.planJob(uri, { show: false });
    assert.equal(shown?.plan.pods, 2);
    assert.ok(shown.plan.yuanPerHour !== undefined && shown.plan.podYuanPerHour !== undefined && Math.abs(shown.plan.yuanPerHour - 2 * shown.plan.podYuanPerHour) < 1e-9, 'two pods at once cost twice one');
    assert.ok(Math.abs(shown.plan.capYuan! - (shown.plan.yuanPerHour * 900) / 3600) < 1e-6, 'the cap: all pods for the whole timeout');

    // Deploy through the CodeLens (the confirmation skipped for the test): the job exists and the file names it.
    const deploy = titled(before, 'Deploy').command!;
    const jobId = await vscode.commands.executeCommand<number | undefined>(deploy.command, ...(deploy.arguments ?? []), { confirm: false });
    assert.ok(typeof jobId === 'number');
    assert.equal((JSON.parse(document.getText()) as { taskId?: number }).taskId, jobId, 'the file remembers the job id');
    const live = await api.services.computeClient().call('job.detail', { task_id: jobId });
    assert.equal(live.points, 3);
    assert.deepEqual(
      (live.services[0]!.env ?? []).map((variable) => [variable.name, variable.value]),
      [
        ['MODE', 'batch'],
        ['HF_TOKEN', 'hf_integrationjobsecret42'],
      ],
    );
    const after = await lenses(uri, (titles) => titles.some((title) => title.includes('Open Live')));
    assert.ok(after.some((lens) => lens.command!.title.includes('Stop')));
    assert.ok(!after.some((lens) => lens.command!.title.includes('Deploy')), 'a deployed job file has no Deploy');
    const again = await api.specs.actions.planJob(uri, { show: false });
    assert.equal(again?.plan.action, 'exists', 'a plan of a deployed job file says jobs cannot be updated');
    assert.ok(again.lines.some((line) => line.includes(String(jobId))));

    // Save as Spec File… from a Jobs view row (the command receives the row's job). Which values stay
    // plain is a multi-select with nothing picked: Enter keeps every value out of the file.
    const target = vscode.Uri.joinPath(folder(), `${name}-saved.job.yaml`);
    let settled = false;
    const saving = Promise.resolve(vscode.commands.executeCommand<vscode.Uri | undefined>('computeToolkit.spec.saveFromJob', { job: { task_id: jobId } }, target)).finally(() => (settled = true));
    for (const deadline = Date.now() + PATIENCE_MS; !settled && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const saved = await saving;
    assert.equal(saved?.toString(), target.toString());
    const text = (await vscode.workspace.openTextDocument(target)).getText();
    assert.match(text, /^kind: job$/m);
    assert.match(text, new RegExp(`^taskId: ${jobId}$`, 'm'));
    assert.match(text, new RegExp(`secret: ${name}-HF_TOKEN`), 'the token became a reference');
    assert.match(text, new RegExp(`secret: ${name}-MODE`), 'a value that does not look secret became a reference too');
    assert.ok(!text.includes('hf_integrationjobsecret42') && !/\bbatch\b/.test(text), `no value in the file:\n${text}`);
    assert.equal(await api.specs.secrets.resolve({ secret: `${name}-HF_TOKEN` }), 'hf_integrationjobsecret42', 'the value went to secret storage');
    assert.equal(await api.specs.secrets.resolve({ secret: `${name}-MODE` }), 'batch');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an unknown field in a *.json spec shows once, ours, with the field it meant in the message and as a Quick Fix', async function () {
    this.timeout(60_000);
    const text = ['{', '  "kind": "job",', '  "name": "typo-job",', '  "resource": { "gpu": "RTX 4090", "gpuCount": 1, "region": "beijing-jxq-p1" },', '  "completions": 1,', '  "parallelism": 1,', '  "timeoutSeconds": 60,', '  "services": [', '    { "name": "main", "imgae": "x", "image": "pytorch/pytorch:2.4" }', '  ]', '}', ''].join('\n');
    const uri = vscode.Uri.joinPath(folder(), 'typo-job.job.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const onLine = () => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.range.start.line === 8);
    while (onLine().length === 0) await nextEvent(vscode.languages.onDidChangeDiagnostics, (event) => event.uris.some((changed) => changed.toString() === uri.toString()));
    // Give the JSON service its turn too; it must add nothing on that line (the editor schema does not close objects).
    await new Promise((resolve) => setTimeout(resolve, 600));
    const found = onLine();
    assert.equal(found.length, 1, found.map((diagnostic) => `${diagnostic.source}: ${diagnostic.message}`).join(' | '));
    assert.equal(found[0]!.source, vscode.l10n.t('Compute spec'), 'ours is the one shown');
    assert.equal(found[0]!.message, vscode.l10n.t('Unknown field "{0}" in {1}: did you mean "{2}"?', 'imgae', 'services[0]', 'image'));
    const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, found[0]!.range)) ?? [];
    const fix = actions.find((action) => action.title === vscode.l10n.t('Change to "{0}"', 'image'));
    assert.ok(fix?.edit, actions.map((action) => action.title).join(', '));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
