// Server names inside Markdown tooltips stay text (src/vscode/markdownText.ts): rendered with a
// CommonMark renderer (links and autolinks on), a hostile name makes no link, image, emphasis,
// heading, code or HTML, and reads back exactly as the server sent it.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { markdownText } from '../../../src/vscode/markdownText';

const renderer = new MarkdownIt({ html: true, linkify: true });

function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

const HOSTILE = [
  '[click me](https://evil.example/phish)',
  '![x](https://evil.example/pixel.png)',
  '**bold** _em_ `code` ~~gone~~',
  '# heading',
  '<img src=x onerror=alert(1)> <b>b</b>',
  'https://evil.example/autolink',
  'a | b | c',
  '- item',
  '1. item',
  '> quote',
  '[ref]: https://evil.example',
];

describe('markdown text', () => {
  for (const name of HOSTILE) {
    it(`keeps ${JSON.stringify(name)} as text`, () => {
      const html = renderer.render(`**Task** ${markdownText(name)}`);
      assert.ok(!/<(a|img|em|code|h\d|b|s|del|ul|ol|blockquote|table)[ >]/.test(html.replace('<strong>Task</strong>', '')), html);
      assert.equal(visibleText(html), `Task ${name}`);
    });
  }

  it('any printable name renders back to itself and makes no element', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab []()!*_`#<>&|-+.:/\\~=\'"'.split('')), maxLength: 40 }), (name) => {
        const html = renderer.render(`x ${markdownText(name)}`);
        const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
        assert.equal(collapse(visibleText(html)), collapse(`x ${name}`));
        assert.ok(!/<(a|img|em|strong|code|h\d)[ >]/.test(html), html);
      }),
      { numRuns: 300 },
    );
  });
});
