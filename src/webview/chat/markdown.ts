// The one markdown-it configuration of the chat: no raw HTML, linkified URLs, highlight.js on a curated,
// bundled set of languages, code blocks with action buttons, and links that do not navigate by themselves
// (the webview asks the host to open them). DOM-free, so it also runs on Node in tests and benchmarks.

import MarkdownIt from 'markdown-it';
import { formatString, type WebviewStrings } from '../../shared/webviewStrings';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

export type Markdown = MarkdownIt.MarkdownIt;
/** The labels markdown output carries (code block toolbar, image links), from the host's bundle. */
export type CodeBlockStrings = Pick<WebviewStrings, 'codeCopy' | 'codeCopyTitle' | 'codeInsert' | 'codeInsertTitle' | 'codeOpen' | 'codeOpenTitle' | 'codePlainText' | 'codeBlock' | 'image' | 'imageLink'>;
type Token = MarkdownIt.Token;

/** Languages an ML engineer's replies mostly contain; each brings its own aliases (py, ts, sh, yml, toml…). */
const LANGUAGES = {
  bash, c, cpp, css, diff, dockerfile, go, ini, java, javascript, json, makefile, markdown, plaintext,
  python, rust, shell, sql, typescript, xml, yaml,
};
let languagesRegistered = false;

function registerLanguages(): void {
  if (languagesRegistered) return;
  for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
  hljs.registerAliases(['toml'], { languageName: 'ini' });
  hljs.registerAliases(['cuda', 'cu'], { languageName: 'cpp' });
  languagesRegistered = true;
}

/** The fence's language: the first word of its info string. */
export function fenceLanguageOf(info: string, md: Markdown): string {
  return md.utils.unescapeAll(info).trim().split(/\s+/)[0] ?? '';
}

function highlight(code: string, language: string, md: Markdown): string {
  if (language && hljs.getLanguage(language)) {
    // ignoreIllegals: a half-streamed block is often "illegal"; highlight what is there.
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  }
  return md.utils.escapeHtml(code);
}

/** Code block with its toolbar. The buttons are ours (not model output); the webview wires them by data attribute. */
function renderCodeBlock(code: string, language: string, md: Markdown, strings: CodeBlockStrings): string {
  const lang = md.utils.escapeHtml(language);
  const label = lang || md.utils.escapeHtml(strings.codePlainText);
  const action = (name: string, text: string, title: string): string =>
    `<button type="button" class="code-action" data-code-action="${name}" title="${md.utils.escapeHtml(title)}">${md.utils.escapeHtml(text)}</button>`;
  return (
    `<div class="code-block" data-lang="${lang}">` +
    `<div class="code-toolbar"><span class="code-lang">${label}</span>` +
    action('copy', strings.codeCopy, strings.codeCopyTitle) +
    action('insert', strings.codeInsert, strings.codeInsertTitle) +
    action('open', strings.codeOpen, strings.codeOpenTitle) +
    '</div>' +
    // Focusable and named: a long line scrolls sideways, and keyboard users scroll it with the arrow keys.
    `<pre tabindex="0" role="group" aria-label="${md.utils.escapeHtml(formatString(strings.codeBlock, lang || strings.codePlainText))}">` +
    `<code class="hljs${lang ? ` language-${lang}` : ''}">${highlight(code, language, md)}</code></pre></div>\n`
  );
}

export function createChatMarkdown(strings: CodeBlockStrings): Markdown {
  registerLanguages();
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  const rules = md.renderer.rules;

  rules.fence = (tokens: Token[], idx: number): string => {
    const token = tokens[idx];
    return token ? renderCodeBlock(token.content, fenceLanguageOf(token.info, md), md, strings) : '';
  };
  rules.code_block = (tokens: Token[], idx: number): string => {
    const token = tokens[idx];
    return token ? renderCodeBlock(token.content, '', md, strings) : '';
  };

  // Links carry their target in data-href, not href: nothing in the webview navigates on its own, and a
  // click becomes a 'link/open' request that the host validates.
  rules.link_open = (tokens: Token[], idx: number): string => {
    const href = String(tokens[idx]?.attrGet('href') ?? '');
    const safe = md.utils.escapeHtml(href);
    return `<a class="chat-link" data-href="${safe}" title="${safe}" role="link" tabindex="0">`;
  };
  // Images would load remote content (the CSP blocks it anyway): show them as links with their alt text.
  rules.image = (tokens: Token[], idx: number, options, env, self): string => {
    const token = tokens[idx];
    if (!token) return '';
    const src = md.utils.escapeHtml(String(token.attrGet('src') ?? ''));
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || strings.image;
    return `<a class="chat-link chat-image" data-href="${src}" title="${src}" role="link" tabindex="0">${md.utils.escapeHtml(formatString(strings.imageLink, alt))}</a>`;
  };
  // Column alignment as a class: the CSP forbids inline style attributes.
  const alignedCell: MarkdownIt.RendererRule = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const style = token?.attrGet('style');
    if (token && style !== null && style !== undefined) {
      const align = /text-align:(left|right|center)/.exec(String(style))?.[1];
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) token.attrJoin('class', `align-${align}`);
    }
    return self.renderToken(tokens, idx, options);
  };
  rules.th_open = alignedCell;
  rules.td_open = alignedCell;
  return md;
}
