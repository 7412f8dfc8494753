// A server's JSON answer, parsed without holding up the extension host (docs/budgets.md, "No long turns"):
// a small answer is decoded and parsed here, a larger one in a worker thread, so a 32 MiB log or a
// hostile shape costs this thread only the copy of what comes back. What comes back is bounded: an answer
// with more objects and arrays than any page holds, or nested deeper than any documented shape, is refused
// (docs/security.md) before anything walks it.

import { Worker } from 'node:worker_threads';
import { ProtocolError } from '../errors';
import type { AnswerBytes } from './answerBytes';

/** Answers up to this size are parsed on this thread: the slowest shape that fits takes a few ms. */
export const OFF_THREAD_BYTES = 64 * 1024;
/** What excerpts and exchange records read of an answer (they read at most 65 KiB). */
export const HEAD_BYTES = 96 * 1024;
/** The most objects and arrays one answer may hold: a page of 100 tasks in full holds about 5,000. */
export const MAX_CONTAINERS = 20_000;
/** The deepest nesting one answer may have: documented shapes are under 10 deep. */
export const MAX_DEPTH = 64;

/**
 * A data field that may be a very long text (a node's whole log, read again every few seconds): only its
 * last `keepChars` characters come back, and `<field>From` is set to how many came before them (0 when
 * none were left out; whatever the server put there is overwritten). A 30 MiB string would otherwise be
 * materialised on the host in one turn (docs/budgets.md).
 */
export interface TailRequest {
  field: string;
  keepChars: number;
}

/** How much of a tailed field comes back: twice what one log update shows (logFollower.ts MAX_UPDATE_CHARS). */
export const TAIL_CHARS = 2 * 1024 * 1024;

/**
 * Keeps the tail of `value.data[field]` (an envelope) as TailRequest says. Self-contained (no outer
 * names): the worker runs its source text.
 */
export function keepTail(value: unknown, field: string, keepChars: number): void {
  const data = typeof value === 'object' && value !== null ? (value as { data?: unknown }).data : undefined;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
  const record = data as Record<string, unknown>;
  const text = record[field];
  const cut = typeof text === 'string' && text.length > keepChars ? text.length - keepChars : 0;
  if (cut > 0) record[field] = (text as string).slice(cut);
  record[`${field}From`] = cut;
}

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
const keepTail = ${keepTail.toString()};
parentPort.on('message', ({ id, parts, maxContainers, maxDepth, tail }) => {
  let value;
  try {
    value = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    parentPort.postMessage({ id, ok: false });
    return;
  }
  const bounds = jsonBounds(value, maxContainers, maxDepth);
  if (bounds === 'ok' && tail) keepTail(value, tail.field, tail.keepChars);
  parentPort.postMessage(bounds === 'ok' ? { id, ok: true, value } : { id, ok: false, bounds });
});
`;

/** One parsing worker for the process, started on the first large answer; it never keeps the process alive. */
class ParseWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>();

  /** Parses the bytes of `parts`, each owning its whole ArrayBuffer: they are moved to the worker, not copied. */
  parse(parts: Uint8Array[], tail: TailRequest | undefined): Promise<WorkerAnswer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, parts, maxContainers: MAX_CONTAINERS, maxDepth: MAX_DEPTH, tail }, parts.map((part) => part.buffer as ArrayBuffer));
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
 * Decodes and parses `answer` (a whole answer from `source`, a host name for messages); it is given up
 * (its blocks move to the worker). Not JSON is an answer too (`parsed.ok` false: the caller shows an
 * excerpt); too many values or too deep is a ProtocolError. `tail`: a long text field cut to its end.
 */
export async function parseJsonAnswer(answer: AnswerBytes, source: string, tail?: TailRequest): Promise<JsonAnswer> {
  const size = answer.size;
  if (size <= OFF_THREAD_BYTES) {
    const text = answer.start().toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { head: text, parsed: { ok: false }, bytes: size };
    }
    const bounds = jsonBounds(value, MAX_CONTAINERS, MAX_DEPTH);
    if (bounds !== 'ok') throw refused(bounds, source);
    if (tail) keepTail(value, tail.field, tail.keepChars);
    return { head: text, parsed: { ok: true, value }, bytes: size };
  }
  const head = answer.start(HEAD_BYTES).toString('utf8');
  const parsed = await parseWorker.parse(answer.parts(), tail);
  if (parsed.ok) return { head, parsed: { ok: true, value: parsed.value }, bytes: size };
  if (parsed.bounds) throw refused(parsed.bounds, source);
  return { head, parsed: { ok: false }, bytes: size };
}
