// The one sanitizer for text the extension writes to a terminal or a document (docs/security.md): remote
// programs colour their logs and a server's names or messages may carry escape sequences, so every such
// string passes here. Colour (SGR) is kept only for a surface that shows it (the job terminal); every
// other escape sequence — OSC (titles, OSC 8 links, OSC 52 clipboard writes), DCS/SOS/PM/APC strings,
// CSI other than colour (clears, cursor moves), 8-bit C1 forms — every C0/C1 control except tab, line
// feed and carriage return, and bidi overrides go. One left-to-right pass: each character is looked at a
// bounded number of times whatever the input (an unterminated sequence ends at the end of its line, never
// by scanning back), and a line written to the terminal is bounded.

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
/** A colour sequence longer than this is not a colour a log would write. */
const MAX_SGR_CHARS = 64;

/** The longest line written to the terminal or kept of a log line (the rest becomes "…"). */
export const MAX_LINE_CHARS = 4000;

/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder what is shown. */
function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function isControl(code: number): boolean {
  return (code < 0x20 && code !== TAB && code !== LF && code !== CR) || (code >= 0x7f && code <= 0x9f) || isBidiControl(code);
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

/**
 * True for `ESC [ params m` that only sets colours and attributes: digits and `;`/`:` separators, and no
 * "conceal" (8), which would hide the text that follows. Colour arguments (38/48/58 ;5;n or ;2;r;g;b)
 * are skipped, so a palette index 8 is still a colour.
 */
function isColourSequence(text: string, from: number, to: number): boolean {
  if (to - from > MAX_SGR_CHARS || text.charCodeAt(from) !== ESC || text.charCodeAt(from + 1) !== 0x5b || text.charCodeAt(to - 1) !== 0x6d) return false;
  const params = text.slice(from + 2, to - 1);
  if (!/^[0-9;:]*$/.test(params)) return false;
  const values = params.split(/[;:]/);
  for (let index = 0; index < values.length; index++) {
    const value = Number(values[index] || '0');
    if (value === 8) return false;
    if (value === 38 || value === 48 || value === 58) index += values[index + 1] === '2' ? 4 : 2;
  }
  return true;
}

/**
 * One pass over `text`: escape sequences and controls removed (colour sequences kept when `colour`),
 * stopping once `limit` characters were written (then "…"). Tab, LF and CR stay.
 */
function scan(text: string, colour: boolean, limit: number): { text: string; coloured: boolean } {
  let out = '';
  let kept = 0; // start of the run of plain text not yet copied
  let index = 0;
  let coloured = false;
  while (index < text.length && out.length + (index - kept) <= limit) {
    const code = text.charCodeAt(index);
    if (!isControl(code)) {
      index++;
      continue;
    }
    if (index > kept) out += text.slice(kept, index);
    const start = index;
    if (code === ESC) index = endOfEscape(text, index);
    else if (code === C1_CSI) index = endOfCsi(text, index + 1);
    else if (C1_STRINGS.has(code)) index = endOfControlString(text, index + 1);
    else index++;
    if (colour && isColourSequence(text, start, index)) {
      out += text.slice(start, index);
      coloured = true;
    }
    kept = index;
  }
  if (kept === 0 && index >= text.length) return { text, coloured };
  out += text.slice(kept, index);
  if (out.length > limit || index < text.length) return { text: `${out.slice(0, limit)}…`, coloured };
  return { text: out, coloured };
}

/** `text` without terminal escape sequences, control characters and bidi overrides (tab, LF and CR kept). */
export function plainTerminalText(text: string): string {
  return scan(text, false, Number.MAX_SAFE_INTEGER).text;
}

/** What a terminal would show of a line last: the text after its last carriage return (a progress bar's final state). */
function lastSegment(line: string): string {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  const cr = trimmed.lastIndexOf('\r');
  return cr < 0 ? trimmed : trimmed.slice(cr + 1);
}

/** One line of a remote log as plain text (a tool result, a transcript): its final state, bounded. */
export function plainLogLine(line: string): string {
  return scan(lastSegment(line), false, MAX_LINE_CHARS).text;
}

declare const terminalChunk: unique symbol;
/** Text that went through this module and may be written to a pseudoterminal (one or more whole lines). */
export type TerminalChunk = string & { readonly [terminalChunk]: true };

const RESET = '\x1b[0m';
const STYLES = { dim: '\x1b[2m', warn: '\x1b[33m', ok: '\x1b[32m', error: '\x1b[31m' } as const;
export type TerminalStyle = keyof typeof STYLES;

/**
 * One line of a remote log for the terminal: colour kept (and reset at the end), every other sequence
 * and control removed, its final state after carriage returns, bounded; with a dim `prefix` (plain text).
 */
export function terminalLogLine(line: string, prefix?: string): TerminalChunk {
  const { text, coloured } = scan(lastSegment(line), true, MAX_LINE_CHARS);
  const lead = prefix === undefined ? '' : `${STYLES.dim}${plainLogLine(prefix)}${RESET} `;
  return `${lead}${text}${coloured ? RESET : ''}\r\n` as TerminalChunk;
}

/**
 * A status line of the extension in one of its colours. `text` may hold a server's words (a job name, an
 * error, a folder): it is made plain, and each of its lines becomes a terminal line.
 */
export function terminalStatusLine(style: TerminalStyle, text: string): TerminalChunk {
  return plainTerminalText(text)
    .split(/\r\n|\r|\n/)
    .map((line) => `${STYLES[style]}${scan(line, false, MAX_LINE_CHARS).text}${RESET}\r\n`)
    .join('') as TerminalChunk;
}

/**
 * Output of an interactive shell the user opened on their own rented machine, through a real pty (Open
 * Terminal, docs/machines.md): passed through whole, as OpenSSH's client does — line editing, full-screen
 * programs and colours need every sequence, and the terminal emulator interprets them. Never for logs, tool
 * results or any text the user did not open a shell for: those are `terminalLogLine`.
 */
export function interactiveShellOutput(data: string): TerminalChunk {
  return data as TerminalChunk;
}

/** A notice of the extension inside an interactive terminal: on a line of its own, dim and plain. */
export function terminalNotice(text: string): TerminalChunk {
  return `\r\n${terminalStatusLine('dim', text)}` as TerminalChunk;
}

function escapeForJson(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text for a document the extension shows. JSON keeps its meaning: a control character or bidi override
 * (which JSON.stringify leaves raw in strings from U+007F on) becomes its `\uXXXX` escape. Other text is
 * made plain. Secrets are masked after this (a removed sequence could otherwise join a secret's halves).
 */
export function documentText(text: string, language?: string): string {
  if (language === 'json' || language === 'jsonc') return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, escapeForJson);
  return plainTerminalText(text);
}
