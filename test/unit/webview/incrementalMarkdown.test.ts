import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IncrementalMarkdown, type RenderUpdate } from '../../../src/webview/chat/incrementalMarkdown';
import { createChatMarkdown } from '../../../src/webview/chat/markdown';
import { generateReferenceReply, generateReply, splitIntoDeltas } from './replyCorpus';
import { splitAtPositions } from '../../helpers/splitAt';
import { ENGLISH_CODE_BLOCK_STRINGS } from '../../helpers/codeBlockStrings';

const md = createChatMarkdown(ENGLISH_CODE_BLOCK_STRINGS);

/** What a view holds after applying the updates (mirrors the DOM view's logic). */
class ShownHtml {
  chunks: string[] = [];
  tail = '';
  apply(update: RenderUpdate): void {
    for (const { index, html } of update.replaced) {
      assert.ok(index < this.chunks.length, `replaced chunk ${index} was never shown`);
      this.chunks[index] = html;
    }
    this.chunks.push(...update.frozenAppend);
    this.tail = update.tail;
  }
  get frozen(): string {
    return this.chunks.join('');
  }
  get html(): string {
    return this.frozen + this.tail;
  }
}

/** Streams `deltas`, updating after the deltas whose flag is set (a frame), then finishes. */
function stream(deltas: readonly string[], updateAfter: (index: number) => boolean): { shown: ShownHtml; renderer: IncrementalMarkdown } {
  const renderer = new IncrementalMarkdown(md);
  const shown = new ShownHtml();
  deltas.forEach((delta, index) => {
    renderer.append(delta);
    if (updateAfter(index)) shown.apply(renderer.update());
  });
  shown.apply(renderer.finish());
  return { shown, renderer };
}

/** Markdown fragments chosen to hit block boundaries that later text could move. */
const FRAGMENTS = [
  '# Heading',
  'Setext heading\n===',
  'Paragraph with `code`, **bold**, _em_ and https://example.com/x?y=1 linkified.',
  'Line one\nline two (lazy)\n---',
  '- item a\n- item b\n  continued\n\n  loose paragraph',
  '1. one\n2. two\n   - nested\n10. ten',
  'para\n1. interrupts',
  'para\n2. does not interrupt',
  '| a | b |\n| - | -: |\n| 1 | 2 |\n| 3 | 4 |',
  'para before table\n| x | y |\n| --- | --- |\n| 1 | 2 |',
  '> quote\nlazy quote line\n> > nested',
  '```python\ndef f(x):\n    return x * 2\n```',
  '~~~\nunterminated tilde fence',
  '```ts\nconst a = 1;',
  '````md\n```inner```\n````',
  '    indented code\n    more',
  '***',
  'See [the docs][docs] and [missing][nope].',
  '[docs]: https://docs.example.com/path "Title"',
  '[nope]: https://late.example.com/',
  '[g]: <https://example.com/a b>\n"multi\nline title"',
  'Cited [1] and [2][], then [docs] again.',
  '[1]: https://one.example.com\n[2]: https://two.example.com \'t\'',
  '[1]: https://redefined.example.com',
  '![alt text](https://example.com/img.png)',
  '<script>alert(1)</script> raw <b>html</b>',
  '非 ASCII 段落 🚀 with émoji',
  '\\* not a list',
  '   ',
];
const SEPARATORS = ['\n', '\n\n', '\r\n', '\r\n\r\n', '\r', '\n\n\n'];

const documentArbitrary = fc
  .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 14 })
  .map((parts) => parts.map(([fragment, separator]) => fragment + separator).join(''));

function splitAt(text: string, cuts: readonly number[]): string[] {
  return splitAtPositions(text, cuts.map((cut) => cut % (text.length + 1)));
}

describe('IncrementalMarkdown', () => {
  it('ends byte-identical to one full md.render for random documents, splits and frame timings', () => {
    fc.assert(
      fc.property(
        documentArbitrary,
        fc.array(fc.nat(), { maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
        (text, cuts, frames) => {
          const deltas = splitAt(text, cuts);
          const { shown, renderer } = stream(deltas, (index) => frames[index % frames.length] ?? true);
          const expected = md.render(text);
          assert.equal(shown.html, expected);
          assert.equal(renderer.html, expected);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('shows the same HTML as a full render of the text so far after every update', () => {
    fc.assert(
      fc.property(documentArbitrary, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => {
        const renderer = new IncrementalMarkdown(md);
        const shown = new ShownHtml();
        let sent = '';
        for (const delta of splitAt(text, cuts)) {
          renderer.append(delta);
          sent += delta;
          shown.apply(renderer.update());
          // A trailing '\r' is held back until the next delta says whether it starts a CRLF.
          const visible = sent.endsWith('\r') ? sent.slice(0, -1) : sent;
          assert.equal(shown.html, md.render(visible));
        }
      }),
      { numRuns: 800 },
    );
  });

  it('renders a 60 KB model-like reply identically for several delta splits', () => {
    const text = generateReply({ targetChars: 60_000, codeBlocks: 30 });
    const expected = md.render(text);
    for (const [count, seed] of [[20_000, 1], [3_000, 2], [200, 3]] as const) {
      const { shown, renderer } = stream(splitIntoDeltas(text, count, seed), (index) => index % 3 === 0);
      assert.equal(shown.html, expected, `split into ${count} deltas`);
      assert.equal(renderer.stats.chunksRerendered, 0);
    }
  });

  it('never re-parses or re-renders a frozen block', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} with some text and \`code ${i}\`.`);
    const text = `${blocks.join('\n\n')}\n`;
    const parsedInputs: string[] = [];
    const spy = createChatMarkdown(ENGLISH_CODE_BLOCK_STRINGS);
    const parse = spy.parse.bind(spy);
    spy.parse = (src, env) => {
      parsedInputs.push(src);
      return parse(src, env);
    };
    const renderer = new IncrementalMarkdown(spy);
    const shown = new ShownHtml();
    const frozenSnapshots: string[] = [];
    for (const delta of splitIntoDeltas(text, 500, 11)) {
      renderer.append(delta);
      const update = renderer.update();
      assert.deepEqual(update.replaced, []);
      shown.apply(update);
      frozenSnapshots.push(shown.frozen);
    }
    shown.apply(renderer.finish());

    assert.equal(shown.html, md.render(text));
    assert.equal(renderer.stats.blocksFrozen, blocks.length - 1);
    // Each parse saw at most three paragraphs: the unfinished one, the one whose start is not settled yet
    // (its line and the next must be complete) and the one that start will close.
    const window = Math.max(...blocks.map((_, i) => blocks.slice(i, i + 3).join('\n\n').length)) + 2;
    for (const input of parsedInputs) assert.ok(input.length <= window, `parsed ${input.length} chars: ${JSON.stringify(input.slice(0, 60))}`);
    // Frozen HTML only grows by appending.
    for (let i = 1; i < frozenSnapshots.length; i++) assert.ok((frozenSnapshots[i] ?? '').startsWith(frozenSnapshots[i - 1] ?? ''));
  });

  it('renders again only the frozen chunk that uses a reference definition arriving later', () => {
    const text = 'Read [the guide][g].\n\nMore text.\n\nEven more.\n\n[g]: https://example.com/guide\n';
    const renderer = new IncrementalMarkdown(md);
    const shown = new ShownHtml();
    const replacedIndexes: number[] = [];
    for (const delta of splitIntoDeltas(text, 40, 5)) {
      renderer.append(delta);
      const update = renderer.update();
      replacedIndexes.push(...update.replaced.map((r) => r.index));
      shown.apply(update);
    }
    shown.apply(renderer.finish());
    assert.equal(shown.html, md.render(text));
    assert.ok(shown.html.includes('data-href="https://example.com/guide"'));
    assert.deepEqual([...new Set(replacedIndexes)], [0], 'only the chunk with the link is replaced');
  });

  it('streams a reply with hundreds of reference definitions in linear work', () => {
    const work = (sources: number): number => {
      const text = generateReferenceReply({ sources, seed: 3 });
      const { shown, renderer } = stream(splitIntoDeltas(text, text.length / 4, 13), () => true);
      assert.equal(shown.html, md.render(text));
      return renderer.stats.parsedChars / text.length;
    };
    const small = work(40);
    const large = work(320);
    // Characters parsed per character of text: flat when linear, 8x when quadratic.
    assert.ok(large < small * 2, `parsed ${large.toFixed(1)} chars per char at 8x the sources vs ${small.toFixed(1)}`);
  });

  it('joins a CRLF split across two deltas', () => {
    const { shown } = stream(['line one\r', '\nline two\r', '\r\n', '# h\r'], () => true);
    assert.equal(shown.html, md.render('line one\r\nline two\r\r\n# h\r'));
  });

  it('parses far fewer characters than re-rendering everything on each delta', () => {
    const text = generateReply({ targetChars: 20_000, codeBlocks: 10 });
    const deltas = splitIntoDeltas(text, 2_000, 9);
    const { renderer } = stream(deltas, () => true);
    const naiveChars = deltas.reduce((sum, _delta, i) => sum + deltas.slice(0, i + 1).join('').length, 0);
    assert.ok(renderer.stats.parsedChars * 20 < naiveChars, `${renderer.stats.parsedChars} vs naive ${naiveChars}`);
  });
});
