// The SSE decoder must give the same events however the bytes are cut: inside a multi-byte UTF-8 character,
// between the CR and LF of one line end, inside a field name. Events are generated as structures, written
// out with mixed line ends, cut at random places and decoded; the result must equal the structure.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_MAX_LINE_CHARS, SseDecoder, SseEventAssembler, SseLineSplitter, SseLineTooLongError, type SseEvent } from '../../../src/core/inference/sseDecoder';
import { splitAtPositions } from '../../helpers/splitAt';

type LineEnd = '\n' | '\r' | '\r\n';

interface GeneratedLine {
  kind: 'data' | 'bare-data' | 'event' | 'id' | 'comment' | 'retry' | 'unknown';
  value: string;
  /** Write `field:value` instead of `field: value` (only when the value cannot lose a leading space). */
  tight: boolean;
  end: LineEnd;
}

interface GeneratedBlock {
  lines: GeneratedLine[];
  /** Line end of the blank line that dispatches the block. */
  blankEnd: LineEnd;
}

/** Any text without line breaks, including astral characters (emoji) and CJK, so UTF-8 has 1–4 byte runs. */
const lineText = fc
  .string({ unit: 'binary', maxLength: 12 })
  .map((text) => text.replace(/[\r\n]/g, ''));
const mixedText = fc.oneof(lineText, fc.constantFrom('你好，世界', '🚀✨', 'a', '', ' lead', 'é', '{"x":1}', '[DONE]'));
const lineEnd = fc.constantFrom<LineEnd>('\n', '\r', '\r\n');

const generatedLine: fc.Arbitrary<GeneratedLine> = fc.record({
  kind: fc.constantFrom<GeneratedLine['kind']>('data', 'data', 'data', 'bare-data', 'event', 'id', 'comment', 'retry', 'unknown'),
  value: mixedText,
  tight: fc.boolean(),
  end: lineEnd,
});

const generatedBlocks = fc.array(
  fc.record({ lines: fc.array(generatedLine, { minLength: 1, maxLength: 5 }), blankEnd: lineEnd }),
  { maxLength: 6 },
);

function writeField(name: string, line: GeneratedLine): string {
  return line.tight && !line.value.startsWith(' ') ? `${name}:${line.value}` : `${name}: ${line.value}`;
}

/** Serialises blocks to SSE text. A CR line end followed by an empty LF line would read as one CRLF: avoided. */
function serialise(blocks: GeneratedBlock[]): string {
  let text = '';
  let previousEnd: LineEnd | undefined;
  const emit = (content: string, end: LineEnd): void => {
    const safeEnd = content === '' && end === '\n' && previousEnd === '\r' ? '\r\n' : end;
    text += content + safeEnd;
    previousEnd = safeEnd;
  };
  for (const block of blocks) {
    for (const line of block.lines) {
      switch (line.kind) {
        case 'data':
          emit(writeField('data', line), line.end);
          break;
        case 'bare-data':
          emit('data', line.end);
          break;
        case 'event':
          emit(writeField('event', line), line.end);
          break;
        case 'id':
          emit(writeField('id', { ...line, value: line.value.replace(/\0/g, '') }), line.end);
          break;
        case 'comment':
          emit(`:${line.value}`, line.end);
          break;
        case 'retry':
          emit('retry: 1500', line.end);
          break;
        case 'unknown':
          emit(writeField('x-vendor', line), line.end);
          break;
      }
    }
    emit('', block.blankEnd);
  }
  return text;
}

/** What an EventSource would dispatch for these blocks (the model the decoder is checked against). */
function expectedEvents(blocks: GeneratedBlock[]): SseEvent[] {
  const events: SseEvent[] = [];
  let lastId: string | undefined;
  for (const block of blocks) {
    const data: string[] = [];
    let type = '';
    for (const line of block.lines) {
      if (line.kind === 'data') data.push(line.value);
      else if (line.kind === 'bare-data') data.push('');
      else if (line.kind === 'event') type = line.value;
      else if (line.kind === 'id') lastId = line.value.replace(/\0/g, '');
    }
    if (data.length > 0) events.push({ type: type === '' ? 'message' : type, data: data.join('\n'), id: lastId });
  }
  return events;
}

function decodePieces(pieces: Uint8Array[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for (const piece of pieces) events.push(...decoder.decode(piece));
  events.push(...decoder.end());
  return events;
}

function cutAt(bytes: Uint8Array, fractions: number[]): Uint8Array[] {
  return splitAtPositions(bytes, fractions.map((fraction) => Math.floor(fraction * bytes.length)));
}

describe('SseDecoder', () => {
  it('gives identical events at every random split (property, 10,000 runs)', () => {
    fc.assert(
      fc.property(
        generatedBlocks,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 24 }),
        fc.boolean(),
        fc.boolean(),
        (blocks, fractions, byteByByte, withEmptyChunks) => {
          const bytes = Buffer.from(serialise(blocks), 'utf8');
          const cut = byteByByte ? Array.from(bytes, (_byte, index) => bytes.subarray(index, index + 1)) : cutAt(bytes, fractions);
          // Empty chunks (a transport may deliver them) between every two pieces change nothing.
          const pieces = withEmptyChunks ? cut.flatMap((piece) => [new Uint8Array(0), piece, new Uint8Array(0)]) : cut;
          assert.deepEqual(decodePieces(pieces), expectedEvents(blocks));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('gives identical events for every two-piece split of a fixed stream with every line-end kind', () => {
    const text =
      ': keep-alive\r\n' +
      'event: delta\rid: 7\ndata: {"content":"你好"}\r\ndata: 🚀 second line\n\r' +
      'data:tight\r\n\r\n' +
      'data: [DONE]\n\n';
    const bytes = Buffer.from(text, 'utf8');
    const whole = decodePieces([bytes]);
    assert.deepEqual(whole, [
      { type: 'delta', data: '{"content":"你好"}\n🚀 second line', id: '7' },
      { type: 'message', data: 'tight', id: '7' },
      { type: 'message', data: '[DONE]', id: '7' },
    ]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      assert.deepEqual(decodePieces([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at byte ${cut}`);
    }
  });

  it('an empty chunk between a CR and its LF does not split the event', () => {
    const pieces = ['data: a\r', '', '\ndata: b\r', '', '', '\n\r\n'].map((text) => Buffer.from(text, 'utf8'));
    assert.deepEqual(decodePieces(pieces), [{ type: 'message', data: 'a\nb', id: undefined }]);
  });

  it('caps a line with a clear error, and accepts a line just under the cap', () => {
    const decoder = new SseDecoder(1000);
    assert.deepEqual(decoder.decode(Buffer.from(`data: ${'x'.repeat(990)}\n\n`)), [{ type: 'message', data: 'x'.repeat(990), id: undefined }]);
    assert.throws(
      () => {
        for (let index = 0; index < 20; index++) decoder.decode(Buffer.from('y'.repeat(64)));
      },
      (error: unknown) => error instanceof SseLineTooLongError && /longer than 1000 characters/.test(error.message) && /kept/.test(error.message),
    );
    assert.throws(() => new SseDecoder(1000).decode(Buffer.from(`data: ${'z'.repeat(2000)}\n`)), SseLineTooLongError);
  });

  it('refuses a chunk without a line end that alone passes the cap before decoding it', () => {
    const decode = TextDecoder.prototype.decode;
    let decoded = 0;
    TextDecoder.prototype.decode = function counted(this: TextDecoder, ...args: Parameters<TextDecoder['decode']>) {
      decoded += args[0]?.byteLength ?? 0;
      return decode.apply(this, args);
    };
    try {
      const decoder = new SseDecoder(1000);
      decoder.decode(Buffer.from('data: '));
      assert.throws(() => decoder.decode(new Uint8Array(64 * 1024 * 1024).fill(0x61)), SseLineTooLongError);
      assert.equal(decoded, 'data: '.length, 'the 64 MiB chunk was never decoded');
      // A chunk with a line end is decoded as usual: its lines may be short.
      assert.deepEqual(new SseDecoder(1000).decode(Buffer.from(`data: a\n\n${'b'.repeat(4000)}`.slice(0, 12))), [{ type: 'message', data: 'a', id: undefined }]);
    } finally {
      TextDecoder.prototype.decode = decode;
    }
  });

  it('caps a line at 1 MiB characters by default', () => {
    assert.equal(DEFAULT_MAX_LINE_CHARS, 1024 * 1024);
    assert.throws(() => new SseDecoder().decode(Buffer.from(`data: ${'z'.repeat(DEFAULT_MAX_LINE_CHARS)}`)), SseLineTooLongError);
  });

  it('keeps a multi-byte character that is cut between chunks', () => {
    const bytes = Buffer.from('data: 😀中\n\n', 'utf8');
    // Cut inside the 4-byte emoji and again inside the 3-byte CJK character.
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9, 11), bytes.subarray(11)];
    assert.deepEqual(decodePieces(pieces), [{ type: 'message', data: '😀中', id: undefined }]);
  });

  it('treats a CR at the end of one chunk and a LF at the start of the next as one line end', () => {
    const decoder = new SseDecoder();
    assert.deepEqual(decoder.decodeText('data: a\r'), []);
    // If the LF were read as a second (blank) line end, the event would be dispatched here.
    assert.deepEqual(decoder.decodeText('\ndata: b\r'), []);
    assert.deepEqual(decoder.decodeText('\n\r\n'), [{ type: 'message', data: 'a\nb', id: undefined }]);
  });

  it('drops a leading byte-order mark', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: x\n\n')]);
    assert.deepEqual(decodePieces([bytes.subarray(0, 2), bytes.subarray(2)]), [{ type: 'message', data: 'x', id: undefined }]);
  });

  it('delivers the last event at end of input even without its closing blank line', () => {
    assert.deepEqual(decodePieces([Buffer.from('data: {"a":1}\n\ndata: tail')]), [
      { type: 'message', data: '{"a":1}', id: undefined },
      { type: 'message', data: 'tail', id: undefined },
    ]);
  });

  it('ignores comments, retry and unknown fields, and blocks without data', () => {
    const events = decodePieces([Buffer.from(':ping\n\nevent: only-type\n\nretry: 10\nfoo: bar\ndata: x\n\n')]);
    // The type of a block without data is reset and does not leak into the next event.
    assert.deepEqual(events, [{ type: 'message', data: 'x', id: undefined }]);
  });

  it('keeps an empty data line as an empty event and ignores ids containing NUL', () => {
    const events = decodePieces([Buffer.from('id: 1\ndata\n\nid: a\0b\ndata:\n\n')]);
    assert.deepEqual(events, [
      { type: 'message', data: '', id: '1' },
      { type: 'message', data: '', id: '1' },
    ]);
  });
});

describe('SseLineSplitter and SseEventAssembler (the layers alone)', () => {
  it('splits CR, LF and CRLF and flushes a final unterminated line', () => {
    const splitter = new SseLineSplitter();
    const lines: string[] = [];
    splitter.push('a\rb\nc\r\nd', (line) => lines.push(line));
    splitter.flush((line) => lines.push(line));
    assert.deepEqual(lines, ['a', 'b', 'c', 'd']);
  });

  it('joins multi-line data with LF and strips exactly one space after the colon', () => {
    const assembler = new SseEventAssembler();
    assert.equal(assembler.line('data:  two spaces'), undefined);
    assert.equal(assembler.line('data:x'), undefined);
    assert.deepEqual(assembler.line(''), { type: 'message', data: ' two spaces\nx', id: undefined });
  });
});
