// The chat page the host serves (src/vscode/webviews/pageHtml.ts): its CSP allows exactly the nonce script and the webview origin, and the strings travel as inert JSON.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chatContentSecurityPolicy, chatPageHtml } from '../../../src/vscode/webviews/pageHtml';
import { WEBVIEW_STRING_KEYS, parseWebviewStrings, type WebviewStrings } from '../../../src/shared/webviewStrings';

const CSP_SOURCE = 'https://abc.vscode-cdn.net';
const NONCE = 'n0nce+/AbC=';

function stringsWith(text: (key: string) => string): WebviewStrings {
  return Object.fromEntries(WEBVIEW_STRING_KEYS.map((key) => [key, text(key)])) as WebviewStrings;
}

function page(strings: WebviewStrings = stringsWith((key) => `text of ${key}`), language = 'en'): string {
  return chatPageHtml({
    language,
    cspSource: CSP_SOURCE,
    nonce: NONCE,
    scriptUri: `${CSP_SOURCE}/dist/webview/chat.js`,
    styleUri: `${CSP_SOURCE}/media/chat.css`,
    title: 'Compute Chat',
    strings,
  });
}

/** The body of the data script carrying the strings. */
function stringsJson(html: string): string {
  const match = /<script type="application\/json" id="chat-strings">([^<]*)<\/script>/.exec(html);
  assert.ok(match, 'the page carries the strings');
  return match[1] ?? '';
}

function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('chat page HTML', () => {
  it('allows nothing but the nonce script and the webview origin for styles, images and fonts', () => {
    const policy = directives(chatContentSecurityPolicy(CSP_SOURCE, NONCE));
    assert.deepEqual(Object.fromEntries(policy), {
      'default-src': ["'none'"],
      'script-src': [`'nonce-${NONCE}'`],
      'style-src': [CSP_SOURCE],
      'img-src': [CSP_SOURCE],
      'font-src': [CSP_SOURCE],
    });
  });

  it('puts that policy in the page and the nonce on its only script', () => {
    const html = page();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta?.[1], 'the page declares a CSP');
    assert.equal(meta[1], chatContentSecurityPolicy(CSP_SOURCE, NONCE));
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].filter((script) => !(script[1] ?? '').includes('type="application/json"'));
    assert.equal(scripts.length, 1, 'one runnable script; the other carries data only (no nonce: the CSP would not run it)');
    assert.match(scripts[0]?.[1] ?? '', new RegExp(` nonce="${NONCE.replace(/[+/=]/g, '\\$&')}"`));
  });

  it('has no inline script, inline style or inline event handler', () => {
    const html = page();
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle=/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.doesNotMatch(html, /<script\b(?![^>]*application\/json)[^>]*>[^<]+<\/script>/i, 'the runnable script has a src and no body');
  });

  it('escapes what it interpolates into attributes', () => {
    const html = chatPageHtml({ language: 'en', cspSource: CSP_SOURCE, nonce: NONCE, scriptUri: 'x" onload="alert(1)', styleUri: 's', title: '<b>t</b>', strings: stringsWith((key) => key) });
    assert.doesNotMatch(html, /onload="/);
    assert.ok(html.includes('<title>&lt;b&gt;t&lt;/b&gt;</title>'));
  });

  it('declares the display language, and English for anything that is not a language tag', () => {
    assert.match(page(undefined, 'zh-cn'), /<html lang="zh-cn">/);
    assert.match(page(undefined, 'en'), /<html lang="en">/);
    assert.match(page(undefined, 'pt-br'), /<html lang="pt-br">/);
    assert.match(page(undefined, 'zh-cn" onload="x'), /<html lang="en">/);
    assert.match(page(undefined, ''), /<html lang="en">/);
  });

  it('hands the webview every localized string, and no translation can close the data element', () => {
    const hostile = stringsWith((key) => (key === 'send' ? '</script><script>alert(1)</script> & <!--' : `text of ${key}`));
    const html = page(hostile);
    const json = stringsJson(html);
    assert.doesNotMatch(json, /[<>&]/);
    assert.deepEqual(parseWebviewStrings(JSON.parse(json)), hostile, 'the webview reads back exactly the bundle');
  });

  it('the webview refuses a bundle with a missing key', () => {
    const partial: Record<string, string> = { ...stringsWith((key) => key) };
    delete partial.send;
    assert.equal(parseWebviewStrings(partial), undefined);
  });
});
