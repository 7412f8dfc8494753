// Export to Markdown is robust to any reply text: parsed with markdown-it, every turn boundary (the export's
// own headings) survives and each turn's text comes back unchanged; and the export takes linear time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { conversationToMarkdown, titleFrom } from '../../../src/shared/conversationMarkdown';
import type { ChatTurn } from '../../../src/shared/protocol';
import { assertLinearTime } from '../../helpers/linearTime';

const md = new MarkdownIt();
const settings = { model: 'm/x', systemPrompt: '', temperature: 0.5, maxTokens: 10 };
const at = new Date('2026-01-01T00:00:00Z');

/** Pieces that break naive exports: fences (closed or not), headings, setext lines, HTML, lists, quotes. */
const hostilePiece = fc.constantFrom(
  '```', '````python', '~~~', '~~~~', '``', '`', '# Heading', '## User', '## Assistant', '===', '---', '<!--', '<pre>', '<script>',
  '- item', '1. one', '> quote', '    indented', '\t', '\n', '\r\n', '\r', '\n\n', ' ', '|a|b|', '[x]: http://x', '\\', '\u0000', '中文', '🚀',
);
const replyText = fc.array(fc.oneof(hostilePiece, fc.string({ maxLength: 8 })), { maxLength: 30 }).map((parts) => parts.join(''));

const turnArb = fc.record({
  role: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'),
  content: replyText,
  status: fc.constantFrom<ChatTurn['status']>('complete', 'stopped', 'incomplete', 'error'),
  notice: fc.option(replyText, { nil: undefined }),
  model: fc.option(fc.constantFrom('qwen/qwen3-32b', 'a\nb', '## x', 'm`x'), { nil: undefined }),
});

/** What markdown-it does to text before parsing: line endings to LF, NUL to U+FFFD. */
function normalized(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
}

/** Top-level h2 headings and the fenced blocks that follow them, as markdown-it parses the export. */
function parseTurns(markdown: string): { heading: string; fences: string[] }[] {
  const tokens = md.parse(markdown, {});
  const turns: { heading: string; fences: string[] }[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token === undefined || token.level !== 0) continue;
    if (token.type === 'heading_open' && token.tag === 'h2') turns.push({ heading: tokens[index + 1]?.content ?? '', fences: [] });
    else if (token.type === 'fence') turns.at(-1)?.fences.push(token.content);
  }
  return turns;
}

describe('chat export survives any reply text', () => {
  it('every turn boundary survives a markdown-it parse, and each text comes back (property)', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { maxLength: 6 }), replyText, (generated, systemPrompt) => {
        const turns: ChatTurn[] = generated.map((turn, index) => ({ id: String(index), createdAt: index, ...turn }));
        const markdown = conversationToMarkdown({ title: 'T', settings: { ...settings, systemPrompt }, turns }, at);
        const parsed = parseTurns(markdown);
        const expected = [
          ...(systemPrompt ? [{ heading: 'System', text: systemPrompt }] : []),
          ...turns.map((turn) => ({ heading: turn.role === 'user' ? 'User' : 'Assistant', text: turn.content })),
        ];
        assert.equal(parsed.length, expected.length, markdown);
        expected.forEach((turn, index) => {
          const got = parsed[index];
          assert.ok(got?.heading.startsWith(turn.heading), `turn ${index}: heading "${got?.heading}"`);
          const text = turn.text.trimEnd();
          if (text === '') return;
          assert.equal(got?.fences[0], `${normalized(text)}\n`, `turn ${index}: text changed`);
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('a reply stopped inside a code fence does not swallow the next turn', () => {
    const turns: ChatTurn[] = [
      { id: '1', role: 'assistant', content: 'Here:\n```python\nprint(1)', status: 'stopped', createdAt: 1 },
      { id: '2', role: 'user', content: 'Next question', status: 'complete', createdAt: 2 },
    ];
    const parsed = parseTurns(conversationToMarkdown({ title: 'T', settings, turns }, at));
    assert.deepEqual(parsed.map((turn) => turn.heading), ['Assistant', 'User']);
    assert.equal(parsed[1]?.fences[0], 'Next question\n');
  });
});

describe('chat export runs in linear time', () => {
  const exportOf = (content: string): string =>
    conversationToMarkdown({ title: content.slice(0, 100), settings, turns: [{ id: '1', role: 'assistant', content, status: 'complete', createdAt: 1 }] }, at);
  const shapes: Record<string, (n: number) => string> = {
    'a long whitespace run inside the text': (n) => `a${' \n'.repeat(n / 2)}b`,
    'newlines only': (n) => '\n'.repeat(n),
    'trailing whitespace': (n) => `x${' '.repeat(n)}`,
    'backtick runs': (n) => '`'.repeat(n),
  };
  for (const [name, input] of Object.entries(shapes)) {
    it(name, () => assertLinearTime(name, input, exportOf, { n: 4_000 }));
  }
  it('titleFrom on many lines', () => assertLinearTime('titleFrom', (n) => `${'#> '.repeat(n / 3)}\n`.repeat(4), (text) => titleFrom(text), { n: 4_000 }));
});
