// Follows a pod's log when the platform only returns the whole log as one blob each time, with no
// cursor, and may drop its oldest lines (docs/platform.md "Batch jobs"). Each update emits only the
// lines not seen before: it remembers where it stopped (at a line end) and the text just before
// that point, and finds that text again in the next blob: first where it was (the log only grew),
// then searching back from there (the head was trimmed). When it is gone the lines in between were
// lost: the update says so (`gap`) and starts from the blob's beginning. A line still being written
// is held back until its newline arrives or `flush()` is called at the end.
// Cost per update: the new text plus the trimmed amount, never the whole history. The new text shown is at
// most MAX_UPDATE_CHARS (its last whole lines): a first read of a 30 MiB log, or a log that grew that much
// between two reads, would otherwise be split and written in one long turn; what is left out is a gap too.
// A blob may be only the end of the log (the client keeps the last TAIL_CHARS of it: src/core/http/
// jsonAnswer.ts), given with `from`, where it starts in the whole log: positions are the whole log's, and
// an anchor before the part given is a gap, as it would be with the whole log (more came than one update shows).

/** The anchor is the last few lines seen (bounded), short enough to survive a trim that kept them. */
const ANCHOR_CHARS = 256;
const ANCHOR_LINES = 3;
/** The most new text one update emits (about 12,000 lines of 80 characters). */
export const MAX_UPDATE_CHARS = 1024 * 1024;

export interface LogUpdate {
  lines: string[];
  /** Lines were lost between the previous blob and this one (trimmed or restarted log). */
  gap: boolean;
}

export class LogFollower {
  private position = 0;
  private anchor = '';
  private lastBlob = '';
  private lastFrom = 0;
  private total = 0;

  /** How many lines have been emitted. */
  get lineCount(): number {
    return this.total;
  }

  /** `blob`: the log from its character `from` on (the whole log when 0). */
  update(blob: string, from = 0): LogUpdate {
    let start = 0;
    let gap = false;
    if (this.anchor !== '') {
      // Where the anchor stood, in this blob's own positions (negative: before the part given).
      const expected = this.position - from - this.anchor.length;
      if (expected >= 0 && blob.startsWith(this.anchor, expected)) {
        start = expected + this.anchor.length;
      } else {
        const found = expected < 0 ? -1 : blob.lastIndexOf(this.anchor, Math.min(expected, blob.length - this.anchor.length));
        if (found >= 0) start = found + this.anchor.length;
        else gap = true;
      }
    } else if (from > 0) {
      gap = true;
    }
    if (gap && from > 0) {
      // The part given starts inside a line: that line is part of what was left out.
      const firstEnd = blob.indexOf('\n');
      start = firstEnd < 0 ? blob.length : firstEnd + 1;
    }
    const end = blob.lastIndexOf('\n') + 1;
    this.lastBlob = blob;
    this.lastFrom = from;
    if (end <= start) {
      this.rememberAt(blob, start);
      return { lines: [], gap };
    }
    if (end - start > MAX_UPDATE_CHARS) {
      start = blob.indexOf('\n', end - 1 - MAX_UPDATE_CHARS) + 1;
      gap = true;
      if (start >= end) {
        // One line longer than the bound: it is the part left out.
        this.rememberAt(blob, end);
        return { lines: [], gap };
      }
    }
    const lines = blob.slice(start, end - 1).split('\n');
    this.rememberAt(blob, end);
    this.total += lines.length;
    return { lines, gap };
  }

  /** The unterminated last line of the latest blob, not yet emitted (flush() emits it). */
  get partial(): string {
    return this.lastBlob.slice(this.position - this.lastFrom);
  }

  /** At the end of the log: the unterminated last line, if any. */
  flush(): string[] {
    const rest = this.lastBlob.slice(this.position - this.lastFrom);
    if (rest === '') return [];
    this.rememberAt(this.lastBlob, this.lastBlob.length);
    this.total += 1;
    return [rest];
  }

  /** Remembers `position` of `blob` (its own positions; the whole log's are `lastFrom` on). */
  private rememberAt(blob: string, position: number): void {
    this.position = this.lastFrom + position;
    let from = position;
    for (let line = 0; line < ANCHOR_LINES && from > 0; line++) {
      const previous = blob.lastIndexOf('\n', from - 2);
      from = previous < 0 ? 0 : previous + 1;
      if (position - from >= ANCHOR_CHARS) break;
    }
    this.anchor = blob.slice(Math.max(from, position - ANCHOR_CHARS), position);
  }
}
