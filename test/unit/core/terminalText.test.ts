// Terminal escape sequences in remote log text (vLLM/uvicorn colour their logs): gone wherever logs are
// shown, in one linear pass whatever the input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkResult } from '../../../src/core/compute/resultShapes';
import { plainTerminalText } from '../../../src/core/terminalText';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const ESC = '\u001b';

/** t(32n) / t(n) of plainTerminalText, the least of several runs, measured again before failing (test/helpers/linearTime.ts). */
function assertLinear(label: string, input: (n: number) => string, n: number): void {
  assertLinearTime(label, (size) => flat(input(size)), (text) => plainTerminalText(text), { n });
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

  it('an unterminated control string ends at its line, not at the end of the log', () => {
    assert.equal(plainTerminalText(`one${ESC}]0;never ended\ntwo\n`), 'one\ntwo\n');
  });

  it('drops other control characters, keeps tabs and line breaks, and leaves plain text untouched', () => {
    assert.equal(plainTerminalText('a\u0007\u0008\u0000b\tc\r\nd\u007f'), 'ab\tc\r\nd');
    const plain = '普通日志 line [1/2] 100% ✓';
    assert.equal(plainTerminalText(plain), plain);
    assert.equal(plainTerminalText(''), '');
    assert.equal(plainTerminalText(`x${ESC}`), 'x');
    assert.equal(plainTerminalText(`x${ESC}[`), 'x');
  });

  it('node logs and node events arrive plain from the client (every view and tool shows them so)', () => {
    const log = checkResult('node.log', 'Node log', { logs: `${ESC}[32mINFO${ESC}[0m ready` }) as { logs: string };
    assert.equal(log.logs, 'INFO ready');
    const events = checkResult('node.events', 'Node events', { events: [{ reason: 'Pulled', message: `${ESC}[31mfailed${ESC}[0m`, type: 'Warning', event_time: 't' }] }) as { events: { message: string }[] };
    assert.equal(events.events[0]?.message, 'failed');
  });

  it('is linear on adversarial input', () => {
    const inputs: Record<string, (n: number) => string> = {
      'open CSI runs': (n) => `${ESC}[`.repeat(n / 2),
      'long CSI parameters': (n) => `${ESC}[${'1;'.repeat(n / 2)}`,
      'unterminated OSC per line': (n) => `${ESC}]0;x\n`.repeat(n / 5),
      'unterminated OSC, no newline': (n) => `${ESC}]${'x'.repeat(n)}`,
      'ESC ESC ESC': (n) => ESC.repeat(n),
      'colours between every character': (n) => `${ESC}[1ma`.repeat(n / 5),
      'nF intermediates': (n) => `${ESC}${' '.repeat(n)}`,
    };
    for (const [label, input] of Object.entries(inputs)) assertLinear(label, input, 20_000);
  });
});
