// Export to Markdown renders as the conversation reads (replies as Markdown, not fenced source) and is
// robust to any reply text: parsed with markdown-it as VS Code's preview does (raw HTML on), every turn
// boundary (the export's own headings) survives; and the export takes linear time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { conversationToMarkdown } from '../../../src/shared/conversationMarkdown';
import type { ChatTurn } from '../../../src/shared/protocol';

/** VS Code's Markdown preview renders raw HTML: an unclosed `<!--` or `<pre>` there swallows what follows. */
const md = new MarkdownIt({ html: true });
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

/** Top-level h2 headings (the turn boundaries), with the text of what follows each, as markdown-it parses the export. */
function parseTurns(markdown: string): { heading: string; text: string }[] {
  const tokens = md.parse(markdown, {});
  const turns: { heading: string; text: string }[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.level === 0 && token.type === 'heading_open' && token.tag === 'h2') {
      turns.push({ heading: tokens[index + 1]?.content ?? '', text: '' });
      index += 2;
    } else if (turns.length > 0 && (token.type === 'inline' || token.type === 'fence' || token.type === 'code_block')) {
      const last = turns[turns.length - 1];
      if (last) last.text += token.content;
    }
  }
  return turns;
}

describe('chat export survives any reply text', () => {
  it('every turn boundary survives a markdown-it parse, each under its own heading (property)', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { maxLength: 6 }), replyText, (generated, systemPrompt) => {
        const turns: ChatTurn[] = generated.map((turn, index) => ({ id: String(index), createdAt: index, ...turn, content: `${turn.content}\nmark${index}` }));
        const markdown = conversationToMarkdown({ title: 'T', settings: { ...settings, systemPrompt }, turns }, at);
        const parsed = parseTurns(markdown);
        const expected = [
          ...(systemPrompt ? ['System'] : []),
          ...turns.map((turn) => (turn.role === 'user' ? 'User' : 'Assistant')),
        ];
        assert.equal(parsed.length, expected.length, markdown);
        expected.forEach((heading, index) => assert.ok(parsed[index]?.heading.startsWith(heading), `turn ${index}: heading "${parsed[index]?.heading}"`));
        // Each turn's words stay under its heading (a turn never swallows the next one's).
        const offset = systemPrompt ? 1 : 0;
        turns.forEach((_, index) => assert.ok(parsed[index + offset]?.text.includes(`mark${index}`), `turn ${index} lost its text:\n${markdown}`));
      }),
      { numRuns: 1500 },
    );
  });

  it('a reply reads as rendered Markdown: no ```markdown wrapper, its code blocks are code blocks, its headings sit under the turn', () => {
    const reply = '## Plan\n\nUse **two** GPUs:\n\n```bash\nnvidia-smi -L\n```\n';
    const markdown = conversationToMarkdown({ title: 'T', settings, turns: [{ id: '1', role: 'assistant', content: reply, status: 'complete', createdAt: 1 }] }, at);
    assert.ok(!markdown.includes('```markdown'), markdown);
    assert.ok(markdown.includes('#### Plan\n\nUse **two** GPUs:\n\n```bash\nnvidia-smi -L\n```'), markdown);
    const tokens = md.parse(markdown, {});
    assert.ok(tokens.some((token) => token.type === 'fence' && token.info === 'bash' && token.content === 'nvidia-smi -L\n'));
    assert.ok(tokens.some((token) => token.children?.some((child) => child.type === 'strong_open')));
  });

  it('a reply stopped inside a code fence does not swallow the next turn', () => {
    const turns: ChatTurn[] = [
      { id: '1', role: 'assistant', content: 'Here:\n```python\nprint(1)', status: 'stopped', createdAt: 1 },
      { id: '2', role: 'user', content: 'Next question', status: 'complete', createdAt: 2 },
    ];
    const parsed = parseTurns(conversationToMarkdown({ title: 'T', settings, turns }, at));
    assert.deepEqual(parsed.map((turn) => turn.heading), ['Assistant', 'User']);
    assert.ok(parsed[1]?.text.includes('Next question'));
  });
});
