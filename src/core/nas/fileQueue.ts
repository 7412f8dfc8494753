// Several files of one transfer in flight at once on one SFTP connection. SFTP answers requests in any
// order, so while one small file waits for its stat, open, close, set-time and rename answers, the next
// files' requests go out: per-file round trips overlap instead of adding up (docs/nas.md, "Speed").
// The queue outlives a connection: a file whose connection was lost goes again, first, on the renewed one.

/** Files in flight at once on one connection (each a bounded pipeline of its own: sftpConnection.ts). */
export const FILES_IN_FLIGHT = 8;

/** Which file goes next, across connection renewals: files given back go again first, in order. */
export class FileQueue {
  private next = 0;
  private readonly again: number[] = [];

  constructor(private readonly count: number) {}

  take(): number | undefined {
    if (this.again.length > 0) return this.again.shift();
    return this.next < this.count ? this.next++ : undefined;
  }

  /** A file that did not finish (its connection was lost, or the transfer stopped) goes again. */
  giveBack(index: number): void {
    this.again.push(index);
    this.again.sort((a, b) => a - b);
  }
}

/**
 * Runs `work` on the queue's files, at most `width` at once. After the first failure no new file starts;
 * the files in flight settle (so nothing still runs on the connection when this returns), every file
 * that failed goes back to the queue, and the first failure is thrown.
 */
export async function drainQueue(queue: FileQueue, width: number, work: (index: number) => Promise<void>): Promise<void> {
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined) {
      const index = queue.take();
      if (index === undefined) return;
      try {
        await work(index);
      } catch (error) {
        queue.giveBack(index);
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
  if (failure !== undefined) throw failure.error;
}
