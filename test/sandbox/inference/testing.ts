// Helpers for tests that drive interface B of a running sandbox: read what happened to streamed replies.

import { setTimeout as wait } from 'node:timers/promises';
import type { StreamRecord } from './streamLog';

export type { StreamRecord } from './streamLog';

/** GET {modelApiBaseUrl}/__sandbox/streams: most recent stream first. */
export async function fetchStreamLog(modelApiBaseUrl: string): Promise<StreamRecord[]> {
  const response = await fetch(`${modelApiBaseUrl}/__sandbox/streams`);
  if (!response.ok) throw new Error(`stream log: HTTP ${response.status}`);
  const body = (await response.json()) as { streams: StreamRecord[] };
  return body.streams;
}

/**
 * Polls the stream log until a record satisfies `predicate` (the server notices a disconnect a moment after
 * the client closed). Bounded: fails after `attempts` polls instead of hanging a test.
 */
export async function waitForStream(
  modelApiBaseUrl: string,
  predicate: (record: StreamRecord) => boolean,
  attempts = 250,
): Promise<StreamRecord> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const found = (await fetchStreamLog(modelApiBaseUrl)).find(predicate);
    if (found !== undefined) return found;
    await wait(20);
  }
  const last = await fetchStreamLog(modelApiBaseUrl);
  throw new Error(`no stream matched after ${attempts} polls; log: ${JSON.stringify(last.slice(0, 3))}`);
}
