// One term per concept in 简体中文 (docs/localization.md, "Glossary"): the zh-cn bundle and manifest
// never use a rejected synonym. Issue 27 found the NAS under three names, "Compute 对话" beside the view's
// "算力对话", model tokens called 令牌 (the API credential's word) and "¥/小时" beside the prices' "/h";
// the bundle, the manifest and the walkthrough's pages are read.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const readJson = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, string>;

interface Rule {
  concept: string;
  term: string;
  rejected: RegExp;
}

/** The glossary's rejected synonyms (docs/localization.md). */
const RULES: Rule[] = [
  { concept: 'NAS volume', term: '集群存储', rejected: /NAS ?存储卷|(?<!对象)存储卷|NAS ?卷/ },
  { concept: 'Compute Chat (the view)', term: '算力对话', rejected: /Compute ?对话/ },
  { concept: 'token mode (the API credential)', term: '令牌模式', rejected: /[Tt]oken ?模式/ },
  { concept: 'a model token (unit of text)', term: 'token', rejected: /令牌数|个令牌|最大令牌|第一个令牌|令牌用量/ },
  { concept: 'price per hour', term: '/h (as the prices show it: ¥1.68/h)', rejected: /\/小时|元\/时/ },
  { concept: 'a task status in a sentence', term: '等待中 / 运行中 / 已暂停 / 已结束', rejected: /(?<![=\w])(Pending|Running|Paused|End)(?![=\w])/ },
  { concept: 'an Active NAS volume (as its row says)', term: '已激活', rejected: /(?<![=\w])Active(?![=\w])/ },
  { concept: "the object storage's host name", term: '端点', rejected: /(?<![=\w])[Ee]ndpoint(?![=\w])/ },
];

function violations(texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [key, text] of Object.entries(texts)) {
    for (const rule of RULES) {
      const match = rule.rejected.exec(text);
      if (match) found.push(`${key}: "${match[0]}" — ${rule.concept} is "${rule.term}"`);
    }
  }
  return found;
}

describe('glossary (zh-cn): one term per concept', () => {
  for (const file of ['l10n/bundle.l10n.zh-cn.json', 'package.nls.zh-cn.json']) {
    it(`${file} uses no rejected synonym`, () => {
      assert.deepEqual(violations(readJson(file)), []);
    });
  }

  // The walkthrough's pages are read by every new user first (media/walkthrough, package.json "walkthroughs").
  it('the walkthrough pages (media/walkthrough/*.nls.zh-cn.md) use no rejected synonym', () => {
    const folder = path.join(repoRoot, 'media', 'walkthrough');
    const pages = fs.readdirSync(folder).filter((name) => name.endsWith('.nls.zh-cn.md'));
    assert.ok(pages.length >= 6, `the walkthrough pages: ${pages.join(', ')}`);
    const lines: Record<string, string> = {};
    for (const page of pages) {
      // Code spans (`…`) name commands and settings, not words.
      fs.readFileSync(path.join(folder, page), 'utf8').split('\n').forEach((line, index) => (lines[`${page}:${index + 1}`] = line.replace(/`[^`]*`/g, '')));
    }
    assert.deepEqual(violations(lines), []);
  });

  it('the rules catch the synonyms issue 27 saw and leave the chosen terms alone', () => {
    const caught = violations({
      a: '要挂载的 NAS 存储卷 ID',
      b: '正在将 {0} 同步到存储卷',
      c: '可在 Compute 对话中选择',
      d: '{0} 个令牌（提示 {1}）',
      j: '每个对话都会显示令牌用量',
      e: '消耗速度（¥/小时）',
      f: 'S3 互传需要 RSA 模式；配置使用的是 Token 模式的密钥',
      g: '任务 "{0}" 已 Pending {1} 分钟',
      h: '{0} 没有 Active 的集群存储',
      i: '对象存储的 Endpoint',
    });
    assert.equal(caught.length, 10, caught.join('\n'));
    assert.deepEqual(violations({ a: '集群存储 {0}', b: '算力对话', c: '令牌模式', d: '{0} 个 token', e: '¥1.68/h', f: '列出对象存储卷', g: '{0} 小时 {1} 分' }), []);
  });
});
