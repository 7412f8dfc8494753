// New GPU Kernel… against the sandbox (docs/notebooks.md): the GPU picked by stock and price is the card and
// region the task gets, the image is the Jupyter template, the volume (the NAS run hook's pick) is in that
// region and is the kernel's working folder, the review shows the ¥/h with Cancel first, and the notebook
// then runs on the new task with the token the extension made — nobody typed one; a cell reading a relative
// file the volume lacks gets the Upload to Volume… offer; the start says how long it took and offers Preheat.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RegionChoice } from '../../../src/vscode/resources/index';
import { until } from '../ai/aiTestApi';
import { runFixture, type RunFixture } from '../jobs/runFixture';
import { answerFlow, isPick } from '../nas/answerFlow';

type Item = vscode.QuickPickItem & { choice?: RegionChoice; image?: string; go?: boolean };

describe('notebooks: New GPU Kernel…', () => {
  let fixture: RunFixture;

  before(async () => {
    fixture = await runFixture();
  });

  after(() => {
    // When the before hook failed there is nothing to restore (its own error is the one to read).
    fixture?.api.tests.restore('nasRunHooks');
  });

  it('starts the exact GPU picked, in the volume\'s region, priced with Cancel first, and runs the notebook in the volume', async () => {
    const { api, storageId, directory } = fixture;
    const volumes = (await api.services.computeClient().send({ method: 'GET', path: '/api/storage/nas/v1/list', query: [['page', '1'], ['page_size', '10']] })) as { results: { storage_id: number; region: { name: string } }[] };
    const volumeRegion = volumes.results.find((volume) => volume.storage_id === storageId)?.region.name;
    assert.ok(volumeRegion);
    const regionsAsked: string[] = [];
    api.tests.replace('nasRunHooks', {
      pickVolume: (regionName: string) => {
        regionsAsked.push(regionName);
        return Promise.resolve(storageId);
      },
    });
    const shownBefore = api.money.notificationCount();
    const notebook = await vscode.workspace.openNotebookDocument('jupyter-notebook', new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, 'import os\nopen("from-kernel.txt", "w").write("on the volume")\nprint(os.getcwd() != "")', 'python'), new vscode.NotebookCellData(vscode.NotebookCellKind.Code, 'open("data/not-uploaded.csv")', 'python')]));
    await vscode.window.showNotebookDocument(notebook);
    let chosen: RegionChoice | undefined;
    let review: { first: Item | undefined; placeholder: string } | undefined;
    const taskId = await answerFlow(api, () => api.notebooks.controller.newKernel(notebook), (input) => {
      if (!isPick(input)) return;
      const items = input.items as readonly Item[];
      if (items.some((item) => item.choice)) {
        // Not the preselected cheapest: a GPU in the volume's region that is in stock.
        const wanted = [...items].reverse().find((item) => item.choice?.region.region_name === volumeRegion && item.choice.region.inventory > 0);
        assert.ok(wanted, `a GPU in stock in ${volumeRegion}`);
        chosen = wanted.choice;
        input.activeItems = [wanted];
      } else if (items.some((item) => item.go)) {
        review = { first: items[0], placeholder: input.placeholder ?? '' };
        const go = items.find((item) => item.go);
        if (go) input.activeItems = [go];
      }
    });
    assert.ok(typeof taskId === 'number', 'a task was created');
    assert.ok(chosen);
    assert.deepEqual(regionsAsked, [chosen.region.region_name], 'the volume was asked for in the GPU\'s region');
    assert.ok(review, 'a review was shown');
    assert.notEqual(review.first?.go, true, 'Cancel comes first');
    assert.match(review.placeholder, /¥[\d.,]+\/h/);
    const task = (await api.money.refreshTasks()).find((candidate) => candidate.task_id === taskId);
    assert.ok(task);
    assert.equal(task.status, 'Running');
    assert.equal(task.resources[0]?.resource.device_name, chosen.device.device_name, 'the exact card');
    assert.equal(task.resources[0]?.region_name, chosen.region.region_name, 'the exact region');
    assert.equal(task.services[0]?.service_image, 'quay.io/jupyter/pytorch-notebook:cuda12-latest');
    assert.equal(api.notebooks.controller.boundTask(notebook), taskId);
    // The start says how long it took and offers Preheat for the image it pulled (docs/platform.md "Image preheat").
    const took = api.money.notificationsSince(shownBefore).find((shown) => shown.kind === 'preheatOffer');
    assert.ok(took, 'how long the start took was shown');
    assert.match(took.message, /^The GPU kernel of Untitled-\d+\.ipynb started in \d+( min \d\d s| s)\. Preheat its image quay\.io\/jupyter\/pytorch-notebook:cuda12-latest/);
    assert.deepEqual(took.actions, ['Preheat']);
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: notebook.uri });
    const cell = await until(() => notebook.cellAt(0), (candidate) => candidate.executionSummary?.success !== undefined, 'the cell to finish');
    assert.equal(cell.executionSummary?.success, true, JSON.stringify(cell.outputs.flatMap((output) => output.items.map((item) => new TextDecoder().decode(item.data)))));
    assert.equal(fs.readFileSync(path.join(directory, 'from-kernel.txt'), 'utf8'), 'on the volume');

    // A cell that reads a relative file the volume lacks: Upload to Volume… is offered, for the task's volume.
    assert.equal(api.notebooks.controller.volumeOf(notebook), storageId);
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 1, end: 2 }], document: notebook.uri });
    const offer = await until(() => api.notebooks.controller.missingFileOffers.find((candidate) => candidate.notebook.toString() === notebook.uri.toString()), Boolean, 'the upload offer');
    assert.equal(offer?.file, 'data/not-uploaded.csv');
    assert.equal(offer?.storageId, storageId);
    assert.equal(notebook.cellAt(1).executionSummary?.success, false);
  });
});
