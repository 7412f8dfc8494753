// Several files of one upload or download in flight on one connection (core/nas/fileQueue.ts): the queue's
// order across renewals, the width actually reached, each new folder made once, nothing left running on
// the connection after a failure, and a renewal sending every unfinished file again exactly once. The
// connection here is a recording stand-in; test/contract/nas.test.ts runs the same paths over real SFTP.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SshConnectionError } from '../../../src/core/ssh/errors';
import { drainQueue, FileQueue, FILES_IN_FLIGHT } from '../../../src/core/nas/fileQueue';
import { uploadFiles } from '../../../src/core/nas/transfer';
import type { SftpConnection } from '../../../src/core/ssh/sftpConnection';

/** Answers each request on a later turn, counting what is outstanding; `dropAfterPuts` loses the connection. */
class RecordingConnection {
  outstanding = 0;
  mostOutstanding = 0;
  readonly mkdirs: string[] = [];
  readonly renamed: string[] = [];
  private puts = 0;
  private lost = false;

  constructor(
    readonly existing: Set<string>,
    private readonly dropAfterPuts = Infinity,
  ) {}

  private async answer<T>(value: () => T): Promise<T> {
    if (this.lost) throw new SshConnectionError('lost');
    this.outstanding++;
    this.mostOutstanding = Math.max(this.mostOutstanding, this.outstanding);
    try {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.lost) throw new SshConnectionError('lost');
      return value();
    } finally {
      this.outstanding--;
    }
  }

  statIfExists(path: string): Promise<{ type: 'directory'; size: 0; mtimeMs: 0 } | undefined> {
    return this.answer(() => (this.existing.has(path) ? { type: 'directory', size: 0, mtimeMs: 0 } : undefined));
  }

  mkdir(path: string): Promise<void> {
    return this.answer(() => {
      if (this.existing.has(path)) throw new Error(`${path} made twice`);
      this.existing.add(path);
      this.mkdirs.push(path);
    });
  }

  put(_local: string, _remote: string, step: (bytes: number) => void): Promise<void> {
    if (++this.puts > this.dropAfterPuts) this.lost = true;
    return this.answer(() => step(10));
  }

  setTimes(): Promise<void> {
    return this.answer(() => undefined);
  }

  unlink(): Promise<void> {
    return this.answer(() => undefined);
  }

  rename(from: string, to: string): Promise<void> {
    return this.answer(() => void this.renamed.push(`${from} → ${to}`));
  }
}

/** runDedicated as core/ssh/sessions.ts does it: a lost connection runs the action again on a new one. */
function sessionsOver(connections: RecordingConnection[]) {
  let opened = 0;
  return {
    opened: () => opened,
    run: async <T>(_id: number, action: (connection: SftpConnection) => Promise<T>): Promise<T> => action(connections[0] as unknown as SftpConnection),
    runDedicated: async <T>(_id: number, action: (connection: SftpConnection, attempt: number) => Promise<T>): Promise<T> => {
      for (;;) {
        const connection = connections[opened++];
        assert.ok(connection, 'more renewals than the test allows');
        try {
          return await action(connection as unknown as SftpConnection, opened);
        } catch (error) {
          if (!(error instanceof SshConnectionError)) throw error;
        }
      }
    },
  };
}

const files = (count: number, folder = '/up') =>
  Array.from({ length: count }, (_, index) => ({ local: `/local/f${index}`, remote: `${folder}/d${index % 3}/f${index}`, size: 10, mtimeMs: 0 }));

describe('files in flight side by side (core/nas/fileQueue.ts)', () => {
  it('the queue hands out files in order, and files given back go again first, in order', () => {
    const queue = new FileQueue(5);
    assert.deepEqual([queue.take(), queue.take(), queue.take()], [0, 1, 2]);
    queue.giveBack(2);
    queue.giveBack(0);
    assert.deepEqual([queue.take(), queue.take(), queue.take(), queue.take(), queue.take()], [0, 2, 3, 4, undefined]);
  });

  it('after a failure no new file starts, the files in flight settle first, and each failed file is given back', async () => {
    const queue = new FileQueue(20);
    const started: number[] = [];
    let running = 0;
    await assert.rejects(
      drainQueue(queue, 4, async (index) => {
        started.push(index);
        if (index === 1 || index === 3) throw new Error(`file ${index}`);
        running++;
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      }),
      /file 1/,
    );
    assert.equal(running, 0, 'nothing runs after drainQueue settles');
    assert.deepEqual(started, [0, 1, 2, 3]);
    assert.deepEqual([queue.take(), queue.take(), queue.take()], [1, 3, 4]);
  });

  it(`an upload of many small files keeps up to ${FILES_IN_FLIGHT} in flight and makes each new folder once`, async () => {
    const connection = new RecordingConnection(new Set(['/up']));
    const result = await uploadFiles(sessionsOver([connection]), 1, files(60));
    assert.equal(result.sent, 60);
    assert.equal(connection.renamed.length, 60);
    // One file at a time has at most one request outstanding; side by side, several.
    assert.ok(connection.mostOutstanding >= FILES_IN_FLIGHT / 2, `at most ${connection.mostOutstanding} requests were outstanding`);
    assert.ok(connection.mostOutstanding <= FILES_IN_FLIGHT, `${connection.mostOutstanding} requests outstanding`);
    assert.deepEqual([...connection.mkdirs].sort(), ['/up/d0', '/up/d1', '/up/d2']);
  });

  it('a lost connection with several files in flight sends each unfinished file again once, and counts no byte twice', async () => {
    const first = new RecordingConnection(new Set(['/up']), 13);
    const second = new RecordingConnection(first.existing);
    const sessions = sessionsOver([first, second]);
    let lastBytes = 0;
    const result = await uploadFiles(sessions, 1, files(40), { onProgress: (progress) => (lastBytes = progress.bytes) });
    assert.equal(sessions.opened(), 2);
    assert.equal(result.sent, 40);
    assert.equal(result.bytes, 400);
    assert.equal(lastBytes, 400);
    const landed = [...first.renamed, ...second.renamed].map((line) => line.split(' → ')[1]);
    assert.deepEqual([...landed].sort(), files(40).map((file) => file.remote).sort(), 'every file landed exactly once');
    assert.equal(first.outstanding + second.outstanding, 0);
  });
});
