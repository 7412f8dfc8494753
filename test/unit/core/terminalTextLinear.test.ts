// plainTerminalText and terminalLogLine in linear time on adversarial input (apart from terminalText.test.ts
// so the before-stop hook, which re-runs the timing-ratio files under CPU burners, runs only these).
import { describe, it } from 'node:test';
import { plainTerminalText, terminalLogLine } from '../../../src/core/terminalText';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const ESC = '\u001b';

describe('plainTerminalText', () => {
  it('is linear on adversarial input', () => {
    const inputs: Record<string, (n: number) => string> = {
      'open CSI runs': (n) => `${ESC}[`.repeat(n / 2),
      'long CSI parameters': (n) => `${ESC}[${'1;'.repeat(n / 2)}`,
      'unterminated OSC per line': (n) => `${ESC}]0;x\n`.repeat(n / 5),
      'unterminated OSC, no newline': (n) => `${ESC}]${'x'.repeat(n)}`,
      'unterminated 8-bit OSC, no newline': (n) => `\u009d${'x'.repeat(n)}`,
      'ESC ESC ESC': (n) => ESC.repeat(n),
      'C1 C1 C1': (n) => '\u009b\u009d'.repeat(n / 2),
      'colours between every character': (n) => `${ESC}[1ma`.repeat(n / 5),
      'nF intermediates': (n) => `${ESC}${' '.repeat(n)}`,
    };
    for (const [label, input] of Object.entries(inputs)) {
      assertLinearTime(label, (size) => flat(input(size)), (text) => plainTerminalText(text), { n: 20_000 });
      if (label.startsWith('colours') || label.startsWith('C1')) assertLinearTime(`${label} (terminal)`, (size) => flat(input(size)), (text) => terminalLogLine(text), { n: 20_000 });
    }
  });
});
