import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChatMarkdown } from '../../../src/webview/chat/markdown';
import { ENGLISH_CODE_BLOCK_STRINGS } from '../../helpers/codeBlockStrings';

const md = createChatMarkdown(ENGLISH_CODE_BLOCK_STRINGS);

describe('chat markdown', () => {
  it('escapes raw HTML from model output instead of rendering it', () => {
    const html = md.render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> and <b>bold</b>');
    assert.ok(!html.includes('<script'));
    assert.ok(!html.includes('<img'));
    assert.ok(!html.includes('<b>'));
    assert.ok(html.includes('&lt;script&gt;'));
  });

  it('renders links without href, so only the host can open them', () => {
    const html = md.render('[docs](https://example.com/a?b=1&c=2) and https://linkified.example.org');
    assert.ok(!/\shref=/.test(html), html);
    assert.ok(html.includes('data-href="https://example.com/a?b=1&amp;c=2"'));
    assert.ok(html.includes('data-href="https://linkified.example.org"'));
  });

  it('does not link javascript: or data: URLs', () => {
    const html = md.render('[x](javascript:alert(1)) [y](data:text/html;base64,AAAA)');
    assert.ok(!html.includes('data-href="javascript'), html);
    assert.ok(!html.includes('data-href="data:'), html);
  });

  it('shows images as links with their alt text (nothing loads)', () => {
    const html = md.render('![a "cat"](https://example.com/cat.png)');
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('[image: a &quot;cat&quot;]'));
    assert.ok(html.includes('data-href="https://example.com/cat.png"'));
  });

  it('highlights known languages and gives every code block its actions', () => {
    const html = md.render('```python\ndef f():\n    return 1\n```\n\n```nosuchlang\n<x>\n```\n\n    indented\n');
    assert.equal((html.match(/class="code-block"/g) ?? []).length, 3);
    assert.equal((html.match(/data-code-action="copy"/g) ?? []).length, 3);
    assert.equal((html.match(/data-code-action="insert"/g) ?? []).length, 3);
    assert.equal((html.match(/data-code-action="open"/g) ?? []).length, 3);
    assert.ok(html.includes('class="hljs language-python"'));
    assert.ok(html.includes('<span class="hljs-keyword">def</span>'));
    assert.ok(html.includes('&lt;x&gt;'), 'unknown languages are escaped, not highlighted');
  });

  it('escapes a hostile fence language', () => {
    const html = md.render('```"><script>\ncode\n```');
    assert.ok(!html.includes('<script>'));
    assert.ok(html.includes('data-lang="&quot;&gt;&lt;script&gt;"'));
  });
});

describe('chat markdown tables', () => {
  it('aligns columns with classes, not inline styles (the CSP forbids them)', () => {
    const html = md.render('| a | b | c |\n| :- | :-: | -: |\n| 1 | 2 | 3 |\n');
    assert.ok(!html.includes('style='), html);
    assert.ok(html.includes('<th class="align-left">a</th>'));
    assert.ok(html.includes('<td class="align-center">2</td>'));
    assert.ok(html.includes('<td class="align-right">3</td>'));
  });
});
