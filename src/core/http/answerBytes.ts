// A response body kept as it arrives, copied chunk by chunk into blocks of its own (docs/budgets.md, "No
// long turns"). Joining a 30 MiB body into one buffer at the end took 130–220 ms in one turn on this kind
// of machine (fresh memory is slow to touch); copying each network chunk on its own turn spreads that
// cost, and the blocks can be moved to the parsing worker without another copy (jsonAnswer.ts).

/** The first block holds a typical answer whole; later ones are larger so a big body has few blocks. */
const FIRST_BLOCK_BYTES = 64 * 1024;
const BLOCK_BYTES = 1024 * 1024;

export class AnswerBytes {
  private readonly full: Uint8Array[] = [];
  private current: Uint8Array | undefined;
  private used = 0;
  private total = 0;

  get size(): number {
    return this.total;
  }

  append(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.current || this.used === this.current.length) {
        const first = this.current === undefined;
        if (this.current) this.full.push(this.current);
        // Not zero-filled: every byte of a block is written before it is read.
        this.current = Buffer.allocUnsafeSlow(first ? FIRST_BLOCK_BYTES : BLOCK_BYTES);
        this.used = 0;
      }
      const count = Math.min(chunk.length - offset, this.current.length - this.used);
      this.current.set(chunk.subarray(offset, offset + count), this.used);
      this.used += count;
      offset += count;
    }
    this.total += chunk.length;
  }

  /** The blocks, each a view of its written bytes; each owns its whole ArrayBuffer (a worker can take it). */
  parts(): Uint8Array[] {
    return this.current ? [...this.full, this.current.subarray(0, this.used)] : [...this.full];
  }

  /** The first `limit` bytes (all when fewer) in one buffer: small answers, excerpts. */
  start(limit = this.total): Buffer {
    return Buffer.concat(this.parts(), Math.min(limit, this.total));
  }

  /** Bytes given whole (a test, a body read elsewhere). */
  static of(bytes: Uint8Array): AnswerBytes {
    const answer = new AnswerBytes();
    answer.append(bytes);
    return answer;
  }
}
