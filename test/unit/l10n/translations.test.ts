// Every English string has a Chinese translation that keeps its placeholders ({0}), icons ($(…)) and
// command links: scripts/l10n-missing.mjs lists what lacks one, and this suite fails when it lists
// anything (a fixture with a gap shows the check can fail).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const script = path.join(repoRoot, 'scripts', 'l10n-missing.mjs');
const readJson = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, string>;

function runScript(root: string): { status: number | null; report: Record<string, { missing: Record<string, string>; extra: string[]; tokenMismatch: Record<string, unknown>; fileMissing?: boolean }> } {
  const result = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  assert.equal(result.stderr, '', result.stderr);
  return { status: result.status, report: JSON.parse(result.stdout) };
}

/** Strings that read the same in Chinese (names, identifiers, examples). */
const SAME_IN_CHINESE = new Set(['configuration.title', 'dev', 'test', 'prod', '{0} B', '{0} KB', '{0} MB']);

/** A string of placeholders and punctuation only ("{0} {1} {2}") has nothing to translate. */
const nothingToTranslate = (text: string): boolean => !/\p{L}/u.test(text.replace(/\{\d+\}/g, ''));
const exempt = (key: string, english: string): boolean => SAME_IN_CHINESE.has(key) || nothingToTranslate(english);

describe('translations (zh-cn)', () => {
  it('the repository has no missing, stale or placeholder-breaking translation', () => {
    const { status, report } = runScript(repoRoot);
    assert.deepEqual(report, {}, 'run `node scripts/l10n-missing.mjs` to list what to translate');
    assert.equal(status, 0);
  });

  it('translations are Chinese, not copies of the English', () => {
    for (const [english, chinese] of [['package.nls.json', 'package.nls.zh-cn.json'], ['l10n/bundle.l10n.json', 'l10n/bundle.l10n.zh-cn.json']] as const) {
      const source = readJson(english);
      const translated = readJson(chinese);
      const copied = Object.keys(source).filter((key) => translated[key] === source[key] && !exempt(key, source[key] ?? ''));
      assert.deepEqual(copied, [], `${chinese}: left in English`);
      const withoutHan = Object.keys(source).filter((key) => !exempt(key, source[key] ?? '') && !/\p{Script=Han}/u.test(translated[key] ?? ''));
      assert.deepEqual(withoutHan, [], `${chinese}: no Chinese characters`);
    }
  });

  it('the check lists a missing key, a lost placeholder, a lost command link and a stale key (it can fail)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-missing-'));
    try {
      fs.mkdirSync(path.join(root, 'l10n'));
      const write = (file: string, value: unknown): void => fs.writeFileSync(path.join(root, file), JSON.stringify(value));
      write('package.nls.json', { a: 'Open [Chat](command:x.chat)', b: 'Create Task…', c: 'Nodes {0}' });
      write('package.nls.zh-cn.json', { a: '打开[对话](command:x.other)', c: '节点', old: '旧' });
      write('l10n/bundle.l10n.json', { 'Stop "{0}" on {1}?': 'Stop "{0}" on {1}?', '$(check) Copied': '$(check) Copied' });
      write('l10n/bundle.l10n.zh-cn.json', { 'Stop "{0}" on {1}?': '在 {1} 上停止“{0}”？', '$(check) Copied': '已复制' });
      const { status, report } = runScript(root);
      assert.equal(status, 1);
      const manifest = report['package.nls.zh-cn.json'];
      assert.ok(manifest, 'the manifest translation is reported');
      assert.deepEqual(manifest.missing, { b: 'Create Task…' });
      assert.deepEqual(manifest.extra, ['old']);
      assert.deepEqual(Object.keys(manifest.tokenMismatch).sort(), ['a', 'c']);
      const bundle = report['l10n/bundle.l10n.zh-cn.json'];
      assert.ok(bundle, 'the bundle translation is reported');
      assert.deepEqual(bundle.missing, {});
      assert.deepEqual(Object.keys(bundle.tokenMismatch), ['$(check) Copied'], 'placeholders may move, icons may not vanish');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('a translation that is the English again is reported, units, acronyms and names are not (it can fail)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-missing-'));
    try {
      fs.mkdirSync(path.join(root, 'l10n'));
      const write = (file: string, value: unknown): void => fs.writeFileSync(path.join(root, file), JSON.stringify(value));
      write('package.nls.json', { title: 'Compute Toolkit' });
      write('package.nls.zh-cn.json', { title: 'Compute Toolkit' });
      const english = { 'sold out': 'sold out', '{0} available': '{0} available', '{0} KB': '{0} KB', RSA: 'RSA', dev: 'dev', Nodes: 'Nodes' };
      write('l10n/bundle.l10n.json', english);
      write('l10n/bundle.l10n.zh-cn.json', { ...english, Nodes: '节点' });
      const { status, report } = runScript(root);
      assert.equal(status, 1);
      assert.equal(report['package.nls.zh-cn.json'], undefined, 'a product name reads the same');
      assert.deepEqual((report['l10n/bundle.l10n.zh-cn.json'] as { copied?: Record<string, string> } | undefined)?.copied, { 'sold out': 'sold out', '{0} available': '{0} available' });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('a language file or walkthrough page that does not exist is reported', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-missing-'));
    try {
      fs.mkdirSync(path.join(root, 'l10n'));
      fs.writeFileSync(path.join(root, 'package.nls.json'), JSON.stringify({ a: 'Tasks' }));
      fs.writeFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), JSON.stringify({ Retry: 'Retry' }));
      const { report } = runScript(root);
      assert.equal(report['package.nls.zh-cn.json']?.fileMissing, true);
      assert.deepEqual(report['package.nls.zh-cn.json']?.missing, { a: 'Tasks' });
      assert.deepEqual(report['l10n/bundle.l10n.zh-cn.json']?.missing, { Retry: 'Retry' });
      fs.mkdirSync(path.join(root, 'media', 'walkthrough'), { recursive: true });
      fs.writeFileSync(path.join(root, 'media', 'walkthrough', 'keys.md'), '# Keys');
      fs.writeFileSync(path.join(root, 'media', 'walkthrough', 'chat.md'), '# Chat');
      fs.writeFileSync(path.join(root, 'media', 'walkthrough', 'chat.nls.zh-cn.md'), '# 对话');
      const pages = runScript(root).report['media/walkthrough/*.nls.zh-cn.md'] as unknown as { missingPages: string[] };
      assert.deepEqual(pages.missingPages, ['media/walkthrough/keys.md']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
