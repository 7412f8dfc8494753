// Parsers of pasted and remote text stay linear: each guarded with adversarial input at n vs 32n (see
// test/helpers/linearTime.ts), plus the size caps that bound what is read at all.
//
// Audit (issue 18): every regular expression and scanner that runs over pasted or remote text, and
// where its guard lives.
// - Keys (pasted, from files, from the MCP environment): decodeKeyInput — the "plain text?" test
//   (was /[A-Za-z]{2,} +[A-Za-z]{2,}/: quadratic, fixed), the PEM block scan (was a lazy regex with a
//   back-reference, quadratic over BEGIN lines without END, fixed: pemBlocks), the size cap
//   MAX_KEY_INPUT_CHARS (new), decodeBareBase64, the OpenSSH line test; parsePrivateKey /
//   parsePlatformPublicKey run decodeKeyInput first — this file.
// - Pasted requests: comparePasted (headers, curl arguments, request lines, JSON bodies, signatures,
//   query escapes; MAX_PASTE_CHARS) — test/unit/requests/signCompare.test.ts; signatureNotes' "=" trim
//   (was /=+$/, fixed: trimEnd) — reached only after a bounded match.
// - URLs (profile, MCP environment, sandbox): joinUrl, the compute client's base path, the MCP config's
//   base URLs (were /\/+$/: quadratic on "////…x", fixed: trimEnd) — this file.
// - Server bodies and envelopes: tryParseEnvelope, notAnEnvelopeError, parseRetryAfter, urlForDisplay,
//   capMessage, errorFromHttpResponse — test/unit/core/remoteTextLinear.test.ts; bodyExcerpt /
//   excerptSource — test/unit/core/excerpt.test.ts.
// - Model output: SseDecoder (long lines in small chunks) — test/unit/inference/sseDecoder.test.ts;
//   ToolCallAssembler (parts joined once, MAX_ARGUMENT_CHARS) and estimateTokens —
//   test/unit/inference/toolCalls.test.ts; model lists: modelsFromJson, nonChatKind —
//   remoteTextLinear.test.ts; the chat's IncrementalMarkdown (work counted: parsedChars) —
//   test/unit/webview/incrementalMarkdown.test.ts; conversation export and titleFrom —
//   test/unit/shared/conversationExport.test.ts; the create-task tool's service name from a
//   model-given image (was /^-+|-+$/g, fixed: trimBoth, guarded in this file); tailLines —
//   test/unit/tools/tools.test.ts.
// - Chat history files: read through size caps (conversationStore) — test/unit/chat/conversationStore.test.ts.
// - Redaction: Redactor.redact, maskSecretsIn (canonical single pass), redactPrivateKeyBlocks —
//   test/unit/core/redaction.test.ts.
// Not changed (bounded input, noted): describeError's repeated-sentence regex in src/vscode runs over
// messages already capped by capMessage; the profile/task name slugs in src/vscode use /^-+|-+$/g over
// names the user typed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeKeyInput, MAX_KEY_INPUT_CHARS } from '../../../src/core/compute/keyInput';
import { parsePrivateKey } from '../../../src/core/compute/keys';
import { ConfigError } from '../../../src/core/errors';
import { joinUrl } from '../../../src/core/http/url';
import { trimBoth, trimEnd } from '../../../src/core/textTrim';
import { readConfig } from '../../../src/mcp/config';
import { assertLinearTime, flat } from '../../helpers/linearTime';
import { pemBegin, pemBlock, pemEnd } from '../../helpers/pemArmor';

/** Runs a parser that is expected to refuse the input; the refusal is not what is measured. */
function refused(run: () => unknown): () => void {
  return () => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
  };
}

describe('key input: linear on hostile pastes', () => {
  it('a long run of letters (the "plain text?" test)', () =>
    assertLinearTime('letters', (n) => flat(`${'a'.repeat(n)}!`), (text) => refused(() => decodeKeyInput(text, 'private'))(), { n: 2_000 }));

  it('letters and single spaces with punctuation', () =>
    assertLinearTime('words', (n) => flat(`${'ab '.repeat(n / 3)}!`), (text) => refused(() => decodeKeyInput(text, 'private'))(), { n: 2_000 }));

  it('many BEGIN lines without an END line', () =>
    assertLinearTime('BEGIN lines', (n) => flat(`${pemBegin('RSA PRIVATE KEY')}\n`.repeat(n / 32)), (text) => refused(() => decodeKeyInput(text, 'private'))(), { n: 2_000 }));

  it('BEGIN lines of alternating labels with one END at the end', () =>
    assertLinearTime(
      'labels',
      (n) => flat(`${`${pemBegin('A')}\n${pemBegin('B')}\n`.repeat(n / 36)}${pemEnd('B')}`),
      (text) => refused(() => decodeKeyInput(text, 'private'))(),
      { n: 2_000 },
    ));

  it('refuses text longer than any key before parsing it, naming the length and not the text', () => {
    const text = `${'Q'.repeat(120 * 1024)} some words`;
    assert.throws(
      () => parsePrivateKey(text),
      (error: unknown) =>
        error instanceof ConfigError && error.message.includes(String(text.length)) && error.message.includes(String(MAX_KEY_INPUT_CHARS)) && !error.message.includes('QQQQ'),
    );
  });

  it('still reads a PEM block among other blocks, and names a missing END line', () => {
    const body = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x00]).toString('base64');
    const text = `${pemBlock('CERTIFICATE', body)}\n${pemBlock('PRIVATE KEY', body)}\n`;
    assert.equal(decodeKeyInput(text, 'private').pemKind, 'pkcs8-private');
    assert.throws(() => decodeKeyInput(`${pemBegin('PRIVATE KEY')}\nAAAA\n${pemEnd('RSA PRIVATE KEY')}`, 'private'), /no matching "END PRIVATE KEY"/);
    assert.throws(() => decodeKeyInput('hello there, this is a note', 'private'), /plain text/);
  });
});

describe('URLs and names: trims in one pass', () => {
  it('joinUrl on a base with a long run of slashes that is not at the end', () =>
    assertLinearTime('joinUrl', (n) => flat(`https://h${'/'.repeat(n)}x`), (base) => joinUrl(base, '/p'), { n: 4_000 }));

  it('the MCP configuration on base URLs with long runs of slashes', () =>
    assertLinearTime(
      'readConfig',
      (n) => ({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', COMPUTE_TOOLKIT_BASE_URL: flat(`https://h.example${'/'.repeat(n)}x`) }),
      (env) => readConfig(env),
      { n: 4_000 },
    ));

  it('trimEnd and trimBoth', () => {
    assert.equal(trimEnd('https://h/a///', '/'), 'https://h/a');
    assert.equal(trimEnd('////', '/'), '');
    assert.equal(trimEnd('abc', '/'), 'abc');
    assert.equal(trimBoth('--a-b--', '-'), 'a-b');
    assert.equal(trimBoth('----', '-'), '');
    assertLinearTime('trimBoth', (n) => flat(`${'-'.repeat(n)}x${'-'.repeat(n)}`), (text) => trimBoth(text, '-'), { n: 4_000 });
  });
});
