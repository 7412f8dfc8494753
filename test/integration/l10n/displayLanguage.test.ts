// Our strings in the display language: VS Code loads package.nls.zh-cn.json and
// l10n/bundle.l10n.zh-cn.json when it runs in zh-cn (scripts/vscode-web/run.mjs, phase
// integration-zh-cn, starts code-server with --locale zh-cn). In the ordinary English run the same
// checks expect English, so each run checks the language it was started in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../src/vscode/commandIds';
import { computeWithSandbox } from '../compute/computeTestApi';
import { EXTENSION_ID, extensionApi } from '../extensionApi';

const zhCn = process.env.COMPUTE_TOOLKIT_TEST_LOCALE === 'zh-cn';
const expect = <T>(english: T, chinese: T): T => (zhCn ? chinese : english);

/** A localized manifest string: VS Code keeps the English beside the translation ({ value, original }). */
type Localized = string | { value: string; original: string };
const shown = (text: Localized | undefined): string | undefined => (typeof text === 'object' ? text.value : text);

interface ManifestCommand {
  command: string;
  title: Localized;
  category?: Localized;
}

describe(`l10n: display language (${zhCn ? 'zh-cn' : 'en'})`, () => {
  it('VS Code runs in the language the harness asked for', () => {
    assert.equal(vscode.env.language, expect('en', 'zh-cn'));
  });

  it('a command title and the chat submenu label come from package.nls.<language>.json', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { commands: ManifestCommand[]; submenus: { id: string; label: Localized }[] };
    };
    const open = manifest.contributes.commands.find((command) => command.command === Commands.chatOpen);
    assert.equal(shown(open?.title), expect('Open Chat', '打开对话'));
    assert.equal(shown(open?.category), expect('Compute', '算力'));
    assert.equal(shown(manifest.contributes.submenus[0]?.label), expect('Compute Chat', '算力对话'));
  });

  it('the status bar and a tree message come from l10n/bundle.l10n.<language>.json', async () => {
    const compute = await computeWithSandbox();
    const api = await extensionApi();
    // The sandbox profile is named "Sandbox (RSA)" whatever the language; its mode is not repeated.
    assert.doesNotMatch(api.surface.statusBarText(), /· (RSA|令牌|Token)$/);
    const original = compute.resourceFilter.current;
    try {
      await compute.resourceFilter.set({ ...original, region: 'no-such-region-anywhere' });
      await compute.refresh('resources');
      const { message, rows } = await compute.snapshot('resources');
      assert.deepEqual(rows, []);
      assert.equal(message, expect('No devices match the current filter. Use the filter button to widen it.', '没有符合当前筛选条件的设备。请使用筛选按钮放宽条件。'));
      assert.match(compute.resourceFilter.describe(), expect(/^GPU · no-such-region-anywhere$/, /^GPU · no-such-region-anywhere$/));
      await compute.resourceFilter.set({ ...original, hideSoldOut: true });
      assert.match(compute.resourceFilter.describe(), expect(/in stock$/, /有货$/));
    } finally {
      await compute.resourceFilter.set(original);
      await compute.refresh('resources');
    }
  });

  it('a storage row reads its state in the display language', async () => {
    const compute = await computeWithSandbox();
    await compute.refresh('storage');
    const { rows } = await compute.snapshot('storage');
    assert.ok(rows.length > 0);
    assert.ok(rows.some((row) => row.description?.startsWith(expect('Active · ', '已激活 · '))), rows.map((row) => row.description).join(' | '));
  });
});
