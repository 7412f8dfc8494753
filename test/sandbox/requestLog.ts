// The latest requests the sandbox answered, newest first, for assertions in tests.

import type { RecordedRequest } from './types';

export const REQUEST_LOG_LIMIT = 200;

export class RequestLog {
  private entries: RecordedRequest[] = [];

  add(entry: RecordedRequest): void {
    this.entries.unshift(entry);
    if (this.entries.length > REQUEST_LOG_LIMIT) this.entries.length = REQUEST_LOG_LIMIT;
  }

  /** A snapshot: later requests do not change an array a test already holds. */
  snapshot(): readonly RecordedRequest[] {
    return [...this.entries];
  }
}
