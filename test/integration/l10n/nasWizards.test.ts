// The NAS wizards in the display language (zh-cn run: scripts/vscode-web/run.mjs, phase integration-zh-cn):
// every step of Create NAS Volume… (to its review), Upload to Volume… and Create S3 Transfer… on the one
// wizard style, and the line a finished upload or download ends with. See displayLanguage.test.ts for how
// the language is set and checked.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { S3_SUPPLIERS } from '../../../src/core/nas/transferForm';
import { Commands } from '../../../src/vscode/commandIds';
import { resultMessage } from '../../../src/vscode/nas/transferResultText';
import { PATIENCE_MS } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { driveFlow } from '../jobs/createJobFlow';
import { ourWords } from './ourWords';

const zhCn = process.env.COMPUTE_TOOLKIT_TEST_LOCALE === 'zh-cn';

/** The sandbox's volumes (read fresh) and an Active one, as the wizards on a volume start. */
async function withActiveVolume() {
  await computeWithSandbox();
  const api = await extensionApi();
  api.nas.stores.wake();
  const volumes = await api.nas.stores.volumes();
  const volume = volumes.find((candidate) => candidate.status === 'Active');
  assert.ok(volume, 'the sandbox has an Active volume');
  return { api, volumes, volume };
}

describe(`l10n: display language (${zhCn ? 'zh-cn' : 'en'}): the NAS wizards`, () => {
  describe('no English in our own words', () => {
    const { check, platformValues } = ourWords(zhCn);

    it('every step of Create NAS Volume… to its review (Enter there is Cancel: nothing is created)', async function () {
      this.timeout(PATIENCE_MS * 3);
      await computeWithSandbox();
      const api = await extensionApi();
      const name = `l10n-vol-${Date.now() % 100_000}`;
      const steps = await driveFlow(api, () => vscode.commands.executeCommand(Commands.nasCreate), 4, (step, _visit, input) => (step === 2 && !('items' in input) ? { type: name } : undefined));
      assert.deepEqual([...new Set(steps.map((step) => step.step))], [1, 2, 3, 4], JSON.stringify(steps.map((step) => step.step)));
      const configs = await api.services.computeClient().call('nas.preCreate', {});
      check('the Create NAS Volume steps', steps.map((step) => step.texts.join('\n')).join('\n'), [...platformValues(configs), name, 'GiB', 'GB']);
      api.nas.stores.wake();
      assert.ok(!(await api.nas.stores.volumes()).some((volume) => volume.name === name), 'Cancel created nothing');
    });

    it('every step of Upload to Volume…, and the line a finished upload or download ends with', async function () {
      this.timeout(PATIENCE_MS * 3);
      const { api, volumes, volume } = await withActiveVolume();
      const local = await mkdtemp(join(tmpdir(), 'l10n-upload-'));
      try {
        await writeFile(join(local, 'a.txt'), 'l10n\n');
        // Step 1 the folder on the volume (typed), step 2 what to do with existing files (its default).
        const steps = await driveFlow(api, () => vscode.commands.executeCommand('computeToolkit.nas.upload', volume.storage_id, { sources: [vscode.Uri.file(local)] }), 2, (_step, _visit, input) =>
          'items' in input ? undefined : { type: '/l10n-upload' },
        );
        assert.deepEqual([...new Set(steps.map((step) => step.step))], [1, 2], JSON.stringify(steps.map((step) => step.step)));
        check('the Upload to Volume steps', steps.map((step) => step.texts.join('\n')).join('\n'), [...platformValues(volumes), '/l10n-upload', basename(local), local]);
      } finally {
        await rm(local, { recursive: true, force: true });
      }
      const up = resultMessage({ sent: 1, skipped: 0, bytes: 5 }, 'upload');
      const down = resultMessage({ sent: 2, skipped: 1, bytes: 5 }, 'download');
      check('a finished upload and download', `${up}\n${down}`, []);
      if (zhCn) {
        assert.match(up, /^已上传/, up);
        assert.match(down, /^已下载/, down);
      }
    });

    it('every step of Create S3 Transfer (to its review) on the one wizard style', async function () {
      this.timeout(PATIENCE_MS * 3);
      const { api, volumes, volume } = await withActiveVolume();
      const typed: Record<number, string> = { 3: 's3.sandbox.local', 4: 'ml-data', 6: '/imported', 10: 'AKL10NTEST', 11: 'l10n-secret-value' };
      // Enter on the review (12) is Cancel: nothing is created.
      const steps = await driveFlow(api, () => api.nas.transfers.create(volume.storage_id), 12, (step, _visit, input) =>
        'items' in input ? (step === 2 ? { pick: 0 } : undefined) : typed[step] !== undefined ? { type: typed[step] } : undefined,
      );
      assert.deepEqual([...new Set(steps.map((step) => step.step))], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], JSON.stringify(steps.map((step) => step.step)));
      // One style: every step titled alike and counted "n/12".
      assert.equal(new Set(steps.map((step) => step.title)).size, 1, JSON.stringify(steps.map((step) => step.title)));
      assert.ok(steps.every((step) => step.total === 12), JSON.stringify(steps.map((step) => step.total)));
      check('the Create S3 Transfer steps', steps.map((step) => `(${step.step ?? '?'}) ${step.texts.join('\n')}`).join('\n'), [
        ...platformValues(volumes),
        ...S3_SUPPLIERS,
        ...Object.values(typed),
        'cos.ap-guangzhou.myqcloud.com',
        'datasets/',
        '.tmp, .log',
        'S3',
        'AK',
        'SK',
        'AK)',
        'SK)',
        's3_supplier',
      ]);
    });
  });
});
