// What a new user meets first, checked in the manifest and media: the icon, a free Ask chord, and a
// walkthrough whose steps complete on their own and whose numbered lists are lists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  icon?: string;
  contributes: {
    keybindings: { command: string; key: string; mac?: string }[];
    walkthroughs: { steps: { id: string; media: { markdown?: string }; completionEvents?: string[] }[] }[];
  };
};

describe('first run', () => {
  it('has a 128×128 PNG icon that the package ships', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(repoRoot, 'media', 'icon.png'));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8'), /^!media\/icon\.png$/m);
  });

  it("does not take VS Code's Open Chat chord (Ctrl+Alt+I)", () => {
    const taken = new Set(['ctrl+alt+i', 'cmd+alt+i', 'ctrl+cmd+i']);
    const clashes = manifest.contributes.keybindings.filter((binding) => taken.has(binding.key) || (binding.mac !== undefined && taken.has(binding.mac)));
    assert.deepEqual(clashes, []);
  });

  it('every walkthrough step completes on an event, and its page exists in English and Chinese', () => {
    for (const step of manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
      assert.ok((step.completionEvents ?? []).length > 0, `step ${step.id} never completes`);
      const page = step.media.markdown;
      assert.ok(page, `step ${step.id} has no page`);
      assert.ok(fs.existsSync(path.join(repoRoot, page)), page);
      assert.ok(fs.existsSync(path.join(repoRoot, page.replace(/\.md$/, '.nls.zh-cn.md'))), `${page} has no zh-cn page`);
    }
  });

  it('walkthrough pages keep a numbered list one item per line', () => {
    const dir = path.join(repoRoot, 'media', 'walkthrough');
    for (const name of fs.readdirSync(dir).filter((file) => file.endsWith('.md'))) {
      const inline = fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter((line) => /\S.*\s\d\.\s/.test(line) && /^\s*\d\.\s/.test(line));
      assert.deepEqual(inline, [], `${name}: a numbered list run together on one line renders as a paragraph`);
    }
  });
});
