// Create Job… and Set Spec Secret… on the one wizard style (ui/multiStepInput) in the real VS Code
// against the sandbox: a title and "n/N" on every step, Back keeps the answers, and Create Job's review
// names the price and opens on Cancel (Enter creates nothing); picking Run creates the job as answered.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../src/vscode/commandIds';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { driveFlow } from './createJobFlow';

describe('jobs: Create Job and Set Spec Secret wizards', () => {
  it('Create Job: "n/16" and the title on every step, Back keeps answers, the review opens on Cancel and names the price', async function () {
    this.timeout(PATIENCE_MS * 3);
    await computeWithSandbox();
    const api = await extensionApi();
    const name = `itest-create-${Date.now()}`;
    let reviewRows: string[] = [];
    const seen = await driveFlow(api, () => vscode.commands.executeCommand(Commands.jobsCreate), 16, (step, visit, input) => {
      if (step === 2) return visit === 1 ? { type: name } : undefined;
      if (step === 3) return visit === 1 ? 'back' : undefined;
      if (step === 16) {
        reviewRows = 'items' in input ? input.items.map((item) => item.label) : [];
        return visit === 1 ? 'back' : { pick: 1 };
      }
      return undefined;
    });
    assert.deepEqual(
      seen.map((s) => s.step),
      [1, 2, 3, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 16, 14, 16],
      'one completion: no indexed-mode step; Spot (the default): the estimate step; no volume: no mount directory',
    );
    assert.ok(seen.every((s) => s.total === 16 && s.title === 'Create Job'), JSON.stringify(seen.map((s) => [s.step, s.total, s.title])));
    assert.equal(seen[3]?.opened, name, 'Back shows the name step again with the name typed');
    const reviews = seen.filter((s) => s.step === 16);
    assert.ok(reviews.every((review) => review.opened === 'Cancel'), 'the review opens on Cancel');
    const review = reviews[0];
    assert.ok(review?.texts.some((text) => /^Rate: .+ while pods run/.test(text)), `the price is on the review: ${JSON.stringify(review?.texts)}`);
    assert.match(reviewRows[1] ?? '', /^Run \(.+\)$/, 'the go answer names the rate');
    assert.ok(reviewRows.includes(`Job name: ${name}`), reviewRows.join('\n'));
    const client = api.services.computeClient();
    const created = await waitUntil('the job to be listed', async () => (await client.call('job.list', { page: 1, page_size: 100 })).results.find((job) => job.task_name === name));
    await client.call('job.stop', { task_id: created.task_id }).catch(() => undefined);
  });

  it('Create Job: Enter on the review (Cancel) creates nothing', async function () {
    this.timeout(PATIENCE_MS * 3);
    await computeWithSandbox();
    const api = await extensionApi();
    const name = `itest-cancel-${Date.now()}`;
    await driveFlow(api, () => vscode.commands.executeCommand(Commands.jobsCreate), 16, (step) => (step === 2 ? { type: name } : undefined));
    const listed = await api.services.computeClient().call('job.list', { page: 1, page_size: 100 });
    assert.ok(!listed.results.some((job) => job.task_name === name), 'no job was created');
  });

  it('Set Spec Secret: "1/2", "2/2" under one title, Back from the value keeps the name', async function () {
    this.timeout(PATIENCE_MS * 2);
    const api = await extensionApi();
    const name = `itest-secret-${Date.now()}`;
    const seen = await driveFlow(api, () => vscode.commands.executeCommand(Commands.specSetSecret), 2, (step, visit) => {
      if (step === 1) return visit === 1 ? { type: name } : undefined;
      return visit === 1 ? 'back' : { type: 'it-wizard-secret-value' };
    });
    assert.deepEqual(seen.map((s) => [s.step, s.total, s.title]), [[1, 2, 'Set Spec Secret'], [2, 2, 'Set Spec Secret'], [1, 2, 'Set Spec Secret'], [2, 2, 'Set Spec Secret']]);
    assert.equal(seen[2]?.opened, name, 'Back shows the name again');
    assert.equal(await api.specs.secrets.resolve({ secret: name }), 'it-wizard-secret-value');
    assert.ok(!seen.some((s) => s.texts.some((text) => text.includes('it-wizard-secret-value'))), 'the value is never shown');
  });
});
