// What the sandbox did with each streamed reply, so a test can see that Stop really closed the connection
// (the server noticed and stopped writing) rather than the client merely ignoring the rest.
// Served at GET /v1/__sandbox/streams.

export type StreamState = 'open' | 'done' | 'client-disconnected' | 'dropped';

export interface StreamRecord {
  id: string;
  model: string;
  state: StreamState;
  chunksPlanned: number;
  chunksWritten: number;
  /** Wall-clock ms (sub-ms, comparable with a browser's performance.timeOrigin + now()) the request arrived. */
  receivedAt?: number;
  /** Wall-clock ms the first content delta was written to the socket. */
  firstContentAt?: number;
}

/** Epoch milliseconds with sub-millisecond precision: one clock with the browser on the same machine. */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

export class StreamLog {
  private readonly records: StreamRecord[] = [];

  constructor(private readonly limit = 50) {}

  start(id: string, model: string, chunksPlanned: number, receivedAt?: number): StreamRecord {
    const record: StreamRecord = { id, model, state: 'open', chunksPlanned, chunksWritten: 0 };
    if (receivedAt !== undefined) record.receivedAt = receivedAt;
    this.records.unshift(record);
    if (this.records.length > this.limit) this.records.length = this.limit;
    return record;
  }

  /** Most recent first. */
  list(): readonly StreamRecord[] {
    return this.records;
  }
}
