// A stream output (stdout or stderr of one cell) kept bounded: a cell that prints 100,000 lines keeps the last
// MAX_LINES lines and at most MAX_CHARS characters, and counts what it dropped so the editor can say so.
// Appending is amortised linear in what arrives; memory never exceeds about twice MAX_CHARS.

export const MAX_STREAM_LINES = 2_000;
export const MAX_STREAM_CHARS = 200_000;

export interface StreamText {
  text: string;
  /** Whole lines no longer kept (0 when nothing was dropped). */
  droppedLines: number;
}

function countNewlines(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index >= 0 && index < to; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

export class OutputTail {
  private text = '';
  private dropped = 0;

  constructor(
    private readonly maxLines = MAX_STREAM_LINES,
    private readonly maxChars = MAX_STREAM_CHARS,
  ) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.maxChars) this.cutTo(this.text.length - this.maxChars);
  }

  /** The kept tail: at most maxLines lines and maxChars characters, starting at a line start when it can. */
  snapshot(): StreamText {
    let start = Math.max(0, this.text.length - this.maxChars);
    // Walk back maxLines line ends from the end (bounded by maxChars characters).
    let lines = 0;
    const endsWithNewline = this.text.endsWith('\n');
    for (let index = this.text.length - (endsWithNewline ? 2 : 1); index >= start; index--) {
      if (this.text.charCodeAt(index) !== 10) continue;
      if (++lines >= this.maxLines) {
        start = index + 1;
        break;
      }
    }
    if (start > 0 && start < this.text.length && this.text.charCodeAt(start - 1) !== 10) {
      const next = this.text.indexOf('\n', start);
      if (next >= 0 && next + 1 < this.text.length) start = next + 1;
    }
    return { text: this.text.slice(start), droppedLines: this.dropped + countNewlines(this.text, 0, start) };
  }

  private cutTo(start: number): void {
    this.dropped += countNewlines(this.text, 0, start);
    this.text = this.text.slice(start);
  }
}
