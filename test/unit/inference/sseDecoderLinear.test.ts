// The SSE decoder in linear time (apart from sseDecoder.test.ts so the before-stop hook, which re-runs the
// timing-ratio files under CPU burners, does not also run its 10,000-run property).
import { describe, it } from 'node:test';
import { SseDecoder, type SseEvent } from '../../../src/core/inference/sseDecoder';
import { assertLinearTime, assertLinearWork, countStringWork } from '../../helpers/linearTime';

function decodePieces(pieces: Uint8Array[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for (const piece of pieces) events.push(...decoder.decode(piece));
  events.push(...decoder.end());
  return events;
}

describe('SseDecoder', () => {
  it('scans only new bytes: a long line in 64-byte chunks takes linear time', () => {
    const chunksOf = (n: number): Uint8Array[] => {
      const line = Buffer.from(`data: ${'a'.repeat(n)}\n\n`);
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < line.length; at += 64) pieces.push(line.subarray(at, at + 64));
      return pieces;
    };
    // Counted: the characters the splitter scans for line ends and copies into lines (rescanning the
    // unfinished line at every chunk would be n² / 64). Timed as well, for work the count does not see.
    assertLinearWork('long line in 64-byte chunks (characters scanned and copied)', chunksOf, (pieces) => countStringWork(() => decodePieces(pieces)), { n: 4 * 1024 });
    // 32n stays under the default line cap (1 MiB).
    assertLinearTime('long line in 64-byte chunks', chunksOf, (pieces) => decodePieces(pieces), { n: 16 * 1024 });
  });
});
