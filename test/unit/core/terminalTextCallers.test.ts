// Caller guard: text reaches a pseudoterminal or a document the extension renders only through the one
// sanitizer (src/core/terminalText.ts). Reads the sources as text (test/helpers/repoSources.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const SANITIZER = 'src/core/terminalText.ts';
const sources = readSources(typeScriptFiles('src'));

/** Each `name(` call's argument text up to its matching parenthesis (strings and templates not parsed: enough for this code). */
function callArguments(text: string, name: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf(`${name}(`); at !== -1; at = text.indexOf(`${name}(`, at + 1)) {
    let depth = 0;
    let end = at + name.length;
    for (; end < text.length; end++) {
      const character = text[end];
      if (character === '(') depth++;
      else if (character === ')' && --depth === 0) break;
    }
    found.push(text.slice(at + name.length + 1, end));
  }
  return found;
}

describe('terminal and document text go through src/core/terminalText.ts', () => {
  it('a pseudoterminal writes only TerminalChunk values, which only the sanitizer makes', () => {
    const terminals = [...sources].filter(([, text]) => /\bPseudoterminal\b|\bonDidWrite\b/.test(text));
    assert.ok(terminals.length > 0, 'the job terminal is found');
    for (const [file, text] of terminals) {
      assert.match(text, /EventEmitter<TerminalChunk>/, `${file}: the writer carries TerminalChunk`);
      assert.doesNotMatch(text, /EventEmitter<string>/, `${file}: a string emitter next to a pseudoterminal bypasses the sanitizer`);
    }
    for (const [file, text] of sources) {
      if (file === SANITIZER) continue;
      assert.doesNotMatch(text, /as\s+TerminalChunk|<TerminalChunk>\s*[`'"a-z]/, `${file}: only ${SANITIZER} makes a TerminalChunk`);
      assert.doesNotMatch(text, /\.sendText\(/, `${file}: text sent to a terminal's shell`);
    }
  });

  it('untitled documents and editor insertions of server or model text pass documentText', () => {
    for (const [file, text] of sources) {
      for (const args of callArguments(text, 'openTextDocument')) {
        if (!args.trimStart().startsWith('{')) continue; // a file URI: the workspace's own content
        assert.match(args, /content:\s*documentText\(/, `${file}: openTextDocument(${args.slice(0, 80)}…)`);
      }
      for (const args of callArguments(text, 'edit.replace').concat(callArguments(text, 'edit.insert'))) {
        if (/getText\(\)|withDeployedIds|addMountToConfig|\bnext\b|\btext\b\)?$/.test(args)) continue; // the document's own text, rewritten
        assert.match(args, /documentText\(/, `${file}: edit(${args.slice(0, 80)}…)`);
      }
    }
  });

  it('the read-only document provider is the only one, and every text it serves passes documentText before the Redactor', () => {
    const providers = [...sources].filter(([, text]) => text.includes('registerTextDocumentContentProvider('));
    assert.deepEqual(providers.map(([file]) => file), ['src/vscode/documents/readOnlyDocuments.ts']);
    const text = providers[0]?.[1] ?? '';
    const contents = text.match(/\.content\(\)/g) ?? [];
    const sanitized = text.match(/this\.redactor\.redact\(documentText\(await options\.content\(\), options\.language\)\)/g) ?? [];
    assert.equal(contents.length, 1, 'content() is read in one place');
    assert.equal(sanitized.length, 1, 'and made safe there, then masked');
    assert.doesNotMatch(text, /entries\.set\([^)]*\btext:\s*(?!text\b)/, 'entries hold only the sanitized text');
  });

  it('there is one terminal-text module: no second ANSI handler in src', () => {
    for (const [file, text] of sources) {
      if (file === SANITIZER) continue;
      // An escape-sequence pattern (ESC [ … or ESC ] …) outside the sanitizer is a second handler.
      assert.doesNotMatch(text, /\\(x1b|u001b|x9b|u009b|x9d|u009d|033)/i, `${file}: handles escape sequences itself`);
    }
  });
});
