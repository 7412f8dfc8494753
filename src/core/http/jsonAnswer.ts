// A server's JSON answer, parsed without holding up the extension host (docs/budgets.md, "No long turns"):
// a small answer is decoded and parsed here, a larger one in a worker thread, so a 32 MiB log or a
// hostile shape costs this thread only the copy of what comes back. What comes back is bounded: an answer
// with more objects and arrays than any page holds, or nested deeper than any documented shape, is refused
// (docs/security.md) before anything walks it.

import { Worker } from 'node:worker_threads';
import { ProtocolError } from '../errors';

/** Answers up to this size are parsed on this thread: the slowest shape that fits takes a few ms. */
export const OFF_THREAD_BYTES = 64 * 1024;
/** What excerpts and exchange records read of an answer (they read at most 65 KiB). */
export const HEAD_BYTES = 96 * 1024;
/** The most objects and arrays one answer may hold: a page of 100 tasks in full holds about 5,000. */
export const MAX_CONTAINERS = 20_000;
/** The deepest nesting one answer may have: documented shapes are under 10 deep. */
export const MAX_DEPTH = 64;

export interface JsonAnswer {
  /** The answer's first HEAD_BYTES, decoded: what excerpts and records show. The whole text when smaller. */
  head: string;
  parsed: { ok: true; value: unknown } | { ok: false };
  bytes: number;
}

type Bounds = 'ok' | 'containers' | 'depth';

/**
 * Whether a parsed value stays within the bounds, walked without recursion. Self-contained (no outer
 * names): the worker runs its source text.
 */
export function jsonBounds(value: unknown, maxContainers: number, maxDepth: number): Bounds {
  const stack: [unknown, number][] = [[value, 1]];
  let containers = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    containers += 1;
    if (containers > maxContainers) return 'containers';
    if (depth > maxDepth) return 'depth';
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return 'ok';
}

type WorkerAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; bounds?: Bounds };

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const jsonBounds = ${jsonBounds.toString()};
parentPort.on('message', ({ id, bytes, maxContainers, maxDepth }) => {
  let value;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    parentPort.postMessage({ id, ok: false });
    return;
  }
  const bounds = jsonBounds(value, maxContainers, maxDepth);
  parentPort.postMessage(bounds === 'ok' ? { id, ok: true, value } : { id, ok: false, bounds });
});
`;

/** One parsing worker for the process, started on the first large answer; it never keeps the process alive. */
class ParseWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>();

  parse(bytes: Uint8Array): Promise<WorkerAnswer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, bytes, maxContainers: MAX_CONTAINERS, maxDepth: MAX_DEPTH }, [bytes.buffer as ArrayBuffer]);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      waiting?.resolve(answer);
    });
    const fail = (error: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The JSON parsing worker stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }
}

const parseWorker = new ParseWorker();

function refused(bounds: Bounds, source: string): ProtocolError {
  return new ProtocolError(
    bounds === 'depth'
      ? `The response from ${source} is nested more than ${MAX_DEPTH} levels deep; no platform answer is.`
      : `The response from ${source} holds more than ${MAX_CONTAINERS.toLocaleString('en')} objects and arrays; no platform answer does.`,
  );
}

/**
 * Decodes and parses `bytes` (a whole answer from `source`, a host name for messages). Not JSON is an
 * answer too (`parsed.ok` false: the caller shows an excerpt); too many values or too deep is a ProtocolError.
 */
export async function parseJsonAnswer(bytes: Uint8Array, source: string): Promise<JsonAnswer> {
  const size = bytes.byteLength;
  if (size <= OFF_THREAD_BYTES) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, size).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { head: text, parsed: { ok: false }, bytes: size };
    }
    const bounds = jsonBounds(value, MAX_CONTAINERS, MAX_DEPTH);
    if (bounds !== 'ok') throw refused(bounds, source);
    return { head: text, parsed: { ok: true, value }, bytes: size };
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(size, HEAD_BYTES)).toString('utf8');
  // The worker takes the bytes (moved, not copied): a copy of its own when they share a buffer.
  const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === size ? bytes : bytes.slice();
  const answer = await parseWorker.parse(own);
  if (answer.ok) return { head, parsed: { ok: true, value: answer.value }, bytes: size };
  if (answer.bounds) throw refused(answer.bounds, source);
  return { head, parsed: { ok: false }, bytes: size };
}
