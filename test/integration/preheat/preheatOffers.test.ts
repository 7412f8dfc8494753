// Preheat offered where a start is slow, inside a real VS Code against the sandbox (docs/platform.md
// "Image preheat"): a spec file's CodeLens *Preheat* caches its image through the one preheat service with
// each region's state, a start that took long offers *Preheat* and one of a preheated image says so, and an
// account that has not applied is told what to do. The looks between polls are the test's (offers.wait),
// never the platform's 10 s.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { sandboxUrl } from '../sandboxInfo';
import { waitUntil } from '../../helpers/eventually';

async function preheatControl(fields: { enabled?: boolean; syncMs?: number }): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/preheat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  assert.equal(response.status, 200);
}

function folder(): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(first, 'the test instance opens a workspace folder');
  return first;
}

describe('preheat: offered where a start is slow', () => {
  let api: ExtensionApi;
  let realWait: ExtensionApi['preheat']['offers']['wait'];

  before(async function () {
    this.timeout(180_000);
    await computeWithSandbox();
    api = await extensionApi();
    await preheatControl({ enabled: true, syncMs: 0 });
    realWait = api.preheat.offers.wait;
    // The test drives the looks: each one comes at once (the sandbox's caches are ready on the first look after Pending).
    api.preheat.offers.wait = () => new Promise((resolve) => setImmediate(resolve));
  });
  after(async () => {
    api.preheat.offers.wait = realWait;
    await preheatControl({ enabled: true, syncMs: 2000 });
  });

  it('a spec file\'s CodeLens Preheat caches its image in the preheat regions, each region\'s state reported, until done', async function () {
    this.timeout(120_000);
    const offer = (await api.compute.searchRegions()).find(({ device, region }) => device.gpu_count === 1 && region.inventory > 0);
    assert.ok(offer);
    const image = `registry.example.com/team/lens-${Date.now()}:1.0`;
    const spec = { kind: 'job', name: `it-preheat-${Date.now()}`, resource: { gpu: offer.device.gpu_name, gpuCount: 1, region: offer.region.region, device: offer.device.device_name }, completions: 1, parallelism: 1, timeoutSeconds: 600, services: [{ name: 'main', image, command: ['/bin/sh', '-c'], args: ['echo done'] }] };
    const uri = vscode.Uri.joinPath(folder(), `${spec.name}.job.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(spec, null, 2)}\n`));
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const lens = await waitUntil('the Preheat lens', async () => {
        const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
        return found.find((candidate) => candidate.command?.command === 'computeToolkit.preheat.offer');
      }, { everyMs: 100 });
      assert.match(lens.command?.title ?? '', /Preheat/);
      assert.deepEqual(lens.command?.arguments, [{ images: [image], region: offer.region.region }], 'the spec\'s image and region');
      const runsBefore = api.preheat.offers.runs.length;
      const shownBefore = api.money.notificationCount();
      await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
      const run = api.preheat.offers.runs[runsBefore];
      assert.ok(run, 'one preheat ran through the offers');
      assert.equal(run.done, true);
      assert.ok(run.regions.length >= 1 && run.regions.every((region) => region.status === 'Completed'), JSON.stringify(run.regions));
      const detail = await api.services.computeClient().call('preheat.detail', { task_id: run.taskId });
      assert.deepEqual(detail?.services.map((service) => service.service_image), [image]);
      const done = api.money.notificationsSince(shownBefore).find((shown) => shown.kind === 'preheatOffer');
      assert.match(done?.message ?? '', /is preheated \(.*: preheated/);

      // A later start of that image says it was preheated; one of another image offers Preheat.
      const mark = api.money.notificationCount();
      api.preheat.offers.startTook({ what: 'The job', image, ms: 4_000 });
      api.preheat.offers.startTook({ what: 'The model', image: 'vllm/vllm-openai:latest', ms: 125_000 });
      const [fast, slow] = api.money.notificationsSince(mark);
      assert.equal(fast?.message, 'The job started in 4 s (its image was preheated).');
      assert.deepEqual(fast?.actions, []);
      assert.equal(slow?.message, 'The model started in 2 min 05 s. Preheat its image vllm/vllm-openai:latest to start faster next time?');
      assert.ok(slow);
      await api.money.choose(slow, 'Preheat');
      assert.equal(api.preheat.offers.runs.at(-1)?.done, true, 'Preheat from the start notice ran to done');
      await api.preheat.stop(run.taskId);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('an account that has not applied is told preheat is not enabled and what to do, and nothing is created', async function () {
    this.timeout(60_000);
    await preheatControl({ enabled: false });
    try {
      const runsBefore = api.preheat.offers.runs.length;
      await assert.rejects(api.preheat.offers.preheat('registry.example.com/team/app:1.0'), (error: Error) => {
        assert.match(error.message, /Image preheat is not enabled for this account/);
        assert.match(String((error as { hint?: unknown }).hint ?? ''), /Apply for image preheat in the platform console/);
        return true;
      });
      assert.equal(api.preheat.offers.runs.length, runsBefore);
    } finally {
      await preheatControl({ enabled: true });
    }
  });
});
