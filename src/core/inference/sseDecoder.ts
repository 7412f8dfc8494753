// Server-sent events, decoded in layers: bytes → text (streaming UTF-8) → lines → events.
//
// Decoder choice, by measurement (test/bench/sse.ts: 20,000 chat chunks, 2.1 MB cut into 2,819 random pieces,
// bytes → events → JSON → text, 15 round-robin rounds, Node 20.20, 2 vCPU; three runs on a busy machine,
// load average ~13, so absolute times are ~4× the baselines in docs/budgets.md and only same-run ratios mean anything):
//   case                                     median × hand floor (3 runs)
//   hand-written indexOf splitter (floor)    1.00
//   this decoder + chat layer                1.14 / 0.92 / 0.97
//   eventsource-parser 3.1.1 createParser    1.11 / 0.88 / 0.97
//   openai 6.49 Stream.fromSSEResponse       4.74 / 4.24 / 4.24
// Decision: keep this decoder. It meets the ≤ 1.2× budget and is as fast as eventsource-parser, while
// also splitting on a lone CR (the floor does not) and handling multi-line data, comments and `event:`/`id:`
// per the WHATWG rules; it adds no dependency (eventsource-parser is an ESM-first package) and its layers are
// tested on their own. JSON.parse is most of the cost in every case, so the splitter is not the bottleneck.

import { ProtocolError } from '../errors';

/** One dispatched event. `type` is "message" unless an `event:` field named it. */
export interface SseEvent {
  type: string;
  data: string;
  /** The last event id seen so far (ids persist across events, as in EventSource). */
  id: string | undefined;
}

const LF = 10;
const COLON = 58;
const SPACE = 32;

/**
 * Longest line accepted (characters): a chat chunk is a few hundred; a whole reply in one event (a
 * quarter of a million tokens) still fits. A completed line is joined and parsed in one turn of the
 * event loop, so the cap also bounds that turn (docs/security.md).
 */
export const DEFAULT_MAX_LINE_CHARS = 1024 * 1024;

/** A line outgrew the cap: the server is not sending events as lines, or sends one without end. */
export class SseLineTooLongError extends ProtocolError {
  constructor(readonly maxLineChars: number) {
    super(
      `The model API sent an event line longer than ${maxLineChars} characters; reading stopped there. ` +
        'The reply received so far is kept.',
    );
  }
}

/**
 * Splits text into lines ended by CR, LF or CRLF. Text may arrive cut anywhere, including between the CR
 * and the LF of one line end (even with empty pieces between them): a CR ends its line at once and a LF
 * right after it is then skipped. Only new text is scanned: the unfinished line is kept as pieces and
 * joined once its end arrives, so a long line arriving in small chunks costs linear time.
 */
export class SseLineSplitter {
  private pendingParts: string[] = [];
  private pendingLength = 0;
  private skipLeadingLf = false;

  constructor(readonly maxLineChars: number = DEFAULT_MAX_LINE_CHARS) {}

  /** Characters of the line not yet ended. */
  get pendingChars(): number {
    return this.pendingLength;
  }

  /** Drops the line not yet ended and throws: it outgrew the cap. */
  refuse(): never {
    this.pendingParts = [];
    this.pendingLength = 0;
    throw new SseLineTooLongError(this.maxLineChars);
  }

  push(text: string, onLine: (line: string) => void): void {
    // An empty piece changes nothing, in particular not a CR waiting for its LF.
    if (text.length === 0) return;
    let position = 0;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) position = 1;
    }
    let nextCr = text.indexOf('\r', position);
    if (nextCr === -1) {
      // Fast path: LF-only text, which is what every server we know sends.
      let lf: number;
      while ((lf = text.indexOf('\n', position)) !== -1) {
        onLine(this.takeLine(text, position, lf));
        position = lf + 1;
      }
    } else {
      let nextLf = text.indexOf('\n', position);
      while (nextCr !== -1 || nextLf !== -1) {
        if (nextLf !== -1 && (nextCr === -1 || nextLf < nextCr)) {
          onLine(this.takeLine(text, position, nextLf));
          position = nextLf + 1;
        } else {
          onLine(this.takeLine(text, position, nextCr));
          position = nextCr + 1;
          if (position === text.length) {
            this.skipLeadingLf = true;
          } else if (text.charCodeAt(position) === LF) {
            position++;
          }
        }
        if (nextCr !== -1 && nextCr < position) nextCr = text.indexOf('\r', position);
        if (nextLf !== -1 && nextLf < position) nextLf = text.indexOf('\n', position);
      }
    }
    if (position < text.length) {
      this.pendingParts.push(position === 0 ? text : text.slice(position));
      this.pendingLength += text.length - position;
      if (this.pendingLength > this.maxLineChars) {
        this.pendingParts = [];
        this.pendingLength = 0;
        throw new SseLineTooLongError(this.maxLineChars);
      }
    }
  }

  /** End of input: text after the last line end still counts as a line (servers that close abruptly). */
  flush(onLine: (line: string) => void): void {
    const rest = this.pendingParts.join('');
    this.pendingParts = [];
    this.pendingLength = 0;
    this.skipLeadingLf = false;
    if (rest !== '') onLine(rest);
  }

  /** The line that ends at `end` of `text`: the pending pieces (if any) and text[start, end). */
  private takeLine(text: string, start: number, end: number): string {
    if (this.pendingLength + (end - start) > this.maxLineChars) {
      this.pendingParts = [];
      this.pendingLength = 0;
      throw new SseLineTooLongError(this.maxLineChars);
    }
    if (this.pendingParts.length === 0) return text.slice(start, end);
    const line = this.pendingParts.join('') + text.slice(start, end);
    this.pendingParts = [];
    this.pendingLength = 0;
    return line;
  }
}

/** Turns lines into events: `data:` lines join with "\n", a blank line dispatches, `:` lines are comments. */
export class SseEventAssembler {
  private data = '';
  private hasData = false;
  private type = '';
  private lastId: string | undefined;

  /** Feeds one line; returns the event it completes, if any. */
  line(line: string): SseEvent | undefined {
    if (line.length === 0) return this.dispatch();
    const first = line.charCodeAt(0);
    if (first === COLON) return undefined;
    let field: string;
    let value: string;
    // `data:` first: it is nearly every line of a chat stream.
    if (first === 100 /* d */ && line.startsWith('data:')) {
      field = 'data';
      value = line.charCodeAt(5) === SPACE ? line.slice(6) : line.slice(5);
    } else {
      const colon = line.indexOf(':');
      if (colon === -1) {
        field = line;
        value = '';
      } else {
        field = line.slice(0, colon);
        value = line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
      }
    }
    switch (field) {
      case 'data':
        if (this.hasData) {
          this.data += '\n' + value;
        } else {
          this.data = value;
          this.hasData = true;
        }
        break;
      case 'event':
        this.type = value;
        break;
      case 'id':
        // The WHATWG rules ignore ids that contain NUL.
        if (!value.includes('\0')) this.lastId = value;
        break;
      default:
        // `retry:` and unknown fields carry nothing a chat client needs.
        break;
    }
    return undefined;
  }

  /** End of input: an event whose closing blank line never came is still delivered. */
  end(): SseEvent | undefined {
    return this.dispatch();
  }

  private dispatch(): SseEvent | undefined {
    if (!this.hasData) {
      this.type = '';
      return undefined;
    }
    const event: SseEvent = { type: this.type === '' ? 'message' : this.type, data: this.data, id: this.lastId };
    this.data = '';
    this.hasData = false;
    this.type = '';
    return event;
  }
}

/** Bytes in, events out. Feed every network chunk to `decode`, then call `end` once. */
export class SseDecoder {
  constructor(maxLineChars: number = DEFAULT_MAX_LINE_CHARS) {
    this.lines = new SseLineSplitter(maxLineChars);
  }

  // Streaming mode keeps a multi-byte character that is cut between chunks until its last byte arrives.
  // A leading byte-order mark is dropped, as EventSource does.
  private readonly utf8 = new TextDecoder('utf-8');
  private readonly lines: SseLineSplitter;
  private readonly events = new SseEventAssembler();
  private out: SseEvent[] = [];
  private readonly onLine = (line: string): void => {
    const event = this.events.line(line);
    if (event !== undefined) this.out.push(event);
  };

  decode(chunk: Uint8Array): SseEvent[] {
    // A chunk without a line end whose bytes alone take the line past the cap is refused before it is
    // decoded (a UTF-8 byte triple is at least one UTF-16 unit): the cap stops the work, not only the line.
    if (this.lines.pendingChars + Math.floor(chunk.byteLength / 3) > this.lines.maxLineChars && chunk.indexOf(10) === -1 && chunk.indexOf(13) === -1) this.lines.refuse();
    return this.decodeText(this.utf8.decode(chunk, { stream: true }));
  }

  /** For callers that already hold text (tests, benchmarks). */
  decodeText(text: string): SseEvent[] {
    this.out = [];
    this.lines.push(text, this.onLine);
    return this.out;
  }

  end(): SseEvent[] {
    this.out = [];
    const tail = this.utf8.decode();
    if (tail !== '') this.lines.push(tail, this.onLine);
    this.lines.flush(this.onLine);
    const last = this.events.end();
    if (last !== undefined) this.out.push(last);
    return this.out;
  }
}
