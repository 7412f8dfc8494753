import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ENGLISH_SELECTION_WORDS, buildSelectionPrompt, fenceFor, fenceLanguage, truncateAtLine, type SelectionSource, type SelectionWords } from '../../../src/shared/selectionPrompt';

const source = (overrides: Partial<SelectionSource> = {}): SelectionSource => ({
  text: 'def add(a, b):\n    return a + b\n',
  languageId: 'python',
  fileName: 'src/math.py',
  startLine: 10,
  wholeFile: false,
  ...overrides,
});

describe('buildSelectionPrompt', () => {
  it('quotes a selection as a fenced block with language, file name and line range, ready for a question', () => {
    const prompt = buildSelectionPrompt(source(), 'ask', 20_000);
    assert.equal(prompt.text, '`src/math.py`, lines 10–11:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n');
    assert.equal(prompt.notice, undefined);
    assert.equal(prompt.truncated, false);
  });

  it('puts the instruction first for Explain and Find Bugs', () => {
    const explain = buildSelectionPrompt(source(), 'explain', 20_000);
    assert.match(explain.text, /^Explain what this code does/);
    assert.ok(explain.text.includes('```python\ndef add'));
    const bugs = buildSelectionPrompt(source(), 'findBugs', 20_000);
    assert.match(bugs.text, /^Find bugs in this code/);
  });

  it('says a single line is a line', () => {
    assert.ok(buildSelectionPrompt(source({ text: 'x = 1', startLine: 3 }), 'ask', 100).text.startsWith('`src/math.py`, line 3:'));
  });

  it('tells the user when the whole file is used', () => {
    const prompt = buildSelectionPrompt(source({ wholeFile: true, startLine: 1 }), 'ask', 20_000);
    assert.ok(prompt.notice?.includes('whole file'));
    assert.equal(prompt.truncated, false);
  });

  it('truncates at a line boundary with a visible notice, in the prompt and for the UI', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line_${i} = ${i}`);
    const text = `${lines.join('\n')}\n`;
    const prompt = buildSelectionPrompt(source({ text, startLine: 1, wholeFile: true }), 'explain', 2_000);
    assert.equal(prompt.truncated, true);
    assert.ok(prompt.notice?.includes('truncated to'), prompt.notice);
    assert.ok(prompt.notice?.includes(`of ${text.length.toLocaleString('en-US')} characters`));
    assert.ok(prompt.notice?.includes('whole file'));
    assert.ok(prompt.text.includes(' of 1,000 in the whole file (truncated)'), prompt.text.slice(0, 200));
    const code = /```python\n([\s\S]*?)```/.exec(prompt.text)?.[1] ?? '';
    assert.ok(code.length <= 2_000);
    assert.ok(code.endsWith('\n'), 'cut at a line end');
    assert.ok(text.startsWith(code));
  });

  it('speaks the words it is given (the display language), filling each placeholder once', () => {
    const words: SelectionWords = {
      ...ENGLISH_SELECTION_WORDS,
      line: '第 {0} 行',
      lines: '第 {0}–{1} 行',
      explain: '请解释这段代码。',
      wholeFileNotice: '引用了整个文件。',
      truncatedFileNotice: '整个文件已截断为 {0} / {1} 个字符（{2} / {3}）。',
      header: '{0}，{1}：',
      truncatedFileHeader: '{0}，{1}（已截断；整个文件共 {2} 行）：',
    };
    const text = `${Array.from({ length: 100 }, (_, i) => `x${i} = ${i}`).join('\n')}\n`;
    const prompt = buildSelectionPrompt(source({ text, startLine: 1, wholeFile: true, fileName: '{1}.py' }), 'explain', 200, words);
    assert.match(prompt.text, /^请解释这段代码。\n\n`\{1\}\.py`，第 1–\d+ 行（已截断；整个文件共 100 行）：\n/);
    assert.match(prompt.notice ?? '', /^引用了整个文件。 整个文件已截断为 \d+ \/ [\d,]+ 个字符（第 1–\d+ 行 \/ 第 1–100 行）。$/);
    const selection = buildSelectionPrompt(source(), 'ask', 20_000, words);
    assert.ok(selection.text.startsWith('`src/math.py`，第 10–11 行：'), selection.text);
  });

  it('never lets the quoted code close the fence', () => {
    const tricky = 'Here is markdown:\n```js\nx()\n```\nand ````more````\n';
    const prompt = buildSelectionPrompt(source({ text: tricky, languageId: 'markdown' }), 'ask', 20_000);
    assert.ok(prompt.text.includes('`````markdown\n'));
    assert.ok(prompt.text.includes(`${tricky}\`\`\`\`\`\n`));
  });
});

describe('truncateAtLine', () => {
  it('keeps text within the limit untouched', () => {
    assert.equal(truncateAtLine('abc\ndef', 7), 'abc\ndef');
  });

  it('cuts at the last line break when that keeps at least half', () => {
    assert.equal(truncateAtLine('aaaa\nbbbb\ncccc', 12), 'aaaa\nbbbb\n');
  });

  it('cuts mid-line when a single line is too long, never splitting a surrogate pair', () => {
    assert.equal(truncateAtLine('x'.repeat(50), 10), 'x'.repeat(10));
    assert.equal(truncateAtLine('abc😀def', 4), 'abc');
  });

  it('always returns a prefix within the limit (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 1, max: 400 }), (text, max) => {
        const cut = truncateAtLine(text, max);
        assert.ok(cut.length <= max);
        assert.ok(text.startsWith(cut));
        if (text.length <= max) assert.equal(cut, text);
      }),
    );
  });
});

describe('fences', () => {
  it('maps VS Code language ids to fence names', () => {
    assert.equal(fenceLanguage('typescriptreact'), 'tsx');
    assert.equal(fenceLanguage('shellscript'), 'bash');
    assert.equal(fenceLanguage('plaintext'), '');
    assert.equal(fenceLanguage('python'), 'python');
    assert.equal(fenceLanguage('we ird`id'), '');
  });

  it('uses a fence longer than any backtick run', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('a ```` b'), '`````');
  });
});
