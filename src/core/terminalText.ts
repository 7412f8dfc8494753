// Text a remote program wrote for a terminal (vLLM, uvicorn and most servers colour their logs), made
// plain for a document or a tool result: ANSI/VT escape sequences (colours, cursor moves, window titles,
// hyperlinks) and other control characters go; tabs, line feeds and carriage returns stay. One
// left-to-right pass: each character is looked at a bounded number of times, whatever the input (an
// unterminated sequence ends at the end of its line, never by scanning back).

const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
/** C1 controls (8-bit forms of ESC + a letter): CSI, OSC, DCS, SOS, PM, APC and ST. */
const C1_CSI = 0x9b;
const C1_ST = 0x9c;
const C1_STRINGS: ReadonlySet<number> = new Set([0x90 /* DCS */, 0x98 /* SOS */, 0x9d /* OSC */, 0x9e /* PM */, 0x9f /* APC */]);
/** ESC + one of these opens a control string that runs to BEL or ST: DCS P, SOS X, OSC ], PM ^, APC _. */
const ESC_STRINGS = 'PX]^_';

function isControl(code: number): boolean {
  return (code < 0x20 && code !== TAB && code !== LF && code !== CR) || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

/** End (exclusive) of a CSI sequence whose parameters start at `from`: parameters, intermediates, one final byte. */
function endOfCsi(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code >= 0x40 && code <= 0x7e) return index + 1; // final byte
    if (code < 0x20 || code > 0x3f) return index; // cut short: keep what follows
    index++; // parameter (0x30–0x3f) or intermediate (0x20–0x2f) byte
  }
  return index;
}

/** End (exclusive) of a control string starting at `from`: after BEL or ST (ESC \ or 0x9c), else at the line's end. */
function endOfControlString(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === BEL || code === C1_ST) return index + 1;
    if (code === ESC && text.charCodeAt(index + 1) === 0x5c) return index + 2;
    if (code === LF) return index;
    index++;
  }
  return index;
}

/** End (exclusive) of an escape sequence starting with ESC at `at`. */
function endOfEscape(text: string, at: number): number {
  const next = text.charCodeAt(at + 1);
  if (Number.isNaN(next)) return at + 1;
  if (next === 0x5b) return endOfCsi(text, at + 2); // ESC [
  if (ESC_STRINGS.includes(text[at + 1] ?? '')) return endOfControlString(text, at + 2);
  // nF: intermediates (e.g. ESC ( B, a character set), then one final byte.
  let index = at + 1;
  while (index < text.length && text.charCodeAt(index) >= 0x20 && text.charCodeAt(index) <= 0x2f) index++;
  const final = text.charCodeAt(index);
  return final >= 0x30 && final <= 0x7e ? index + 1 : index;
}

/** `text` without terminal escape sequences and control characters (tab, LF and CR kept). */
export function plainTerminalText(text: string): string {
  let out = '';
  let kept = 0; // start of the run of plain text not yet copied
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (!isControl(code)) {
      index++;
      continue;
    }
    if (index > kept) out += text.slice(kept, index);
    if (code === ESC) index = endOfEscape(text, index);
    else if (code === C1_CSI) index = endOfCsi(text, index + 1);
    else if (C1_STRINGS.has(code)) index = endOfControlString(text, index + 1);
    else index++;
    kept = index;
  }
  return kept === 0 ? text : out + text.slice(kept);
}
