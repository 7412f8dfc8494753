// Terminal escape codes in job logs (untrusted container output): linear-time sanitising.
// `forTerminal` keeps colour (SGR `ESC[…m`) and drops every other escape (cursor moves, titles, OSC
// links, clears) and control character; `plain` drops them all. Both keep the text after the last
// carriage return of a line (a progress bar's final state) and bound the line's length.

export const MAX_LINE_CHARS = 4000;

// CSI (ESC [ params intermediates final), OSC (ESC ] … BEL or ESC \\, or unterminated), other ESC
// sequences, and C0/C1 controls except tab. Every alternative consumes at least one character and none
// overlaps another's start, so one pass is linear.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
const SGR = /^\x1b\[[0-9;]*m$/;

function lastSegment(line: string): string {
  const cr = line.lastIndexOf('\r', line.length - 2);
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  return cr < 0 ? trimmed : trimmed.slice(cr + 1);
}

function bound(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

/** A log line with every escape sequence and control character removed. */
export function plain(line: string): string {
  return bound(lastSegment(line).replace(ESCAPES, ''));
}

/** A log line safe to write to a terminal: colours kept (and reset at the end), everything else removed. */
export function forTerminal(line: string): string {
  let coloured = false;
  const text = lastSegment(line).replace(ESCAPES, (match) => {
    if (SGR.test(match)) {
      coloured = true;
      return match;
    }
    return '';
  });
  const bounded = bound(text);
  return coloured ? `${bounded}\x1b[0m` : bounded;
}
