// A streamed chat reply in the convention's SSE framing: `data: {chunk}\n\n` per chunk, a first chunk with the
// role, reasoning deltas (thinking models) before content deltas, a chunk with finish_reason, a usage chunk with
// empty `choices` when `stream_options.include_usage` asked for it, then `data: [DONE]\n\n`.
// Stream faults (slow first token, drop mid-stream, malformed chunk, error event) are applied here.

import type { ServerResponse } from 'node:http';
import type { Fault } from '../types';
import type { PlannedReply } from './replies';
import { isGone, pause, writeChunk } from './respond';
import { wallClockMs, type StreamRecord } from './streamLog';

export interface StreamReplyOptions {
  id: string;
  created: number;
  /** The name reported in each chunk (the platform reports a display name, not the requested id). */
  modelName: string;
  reply: PlannedReply;
  includeUsage: boolean;
  /** Pause after each delta (ms); long replies pause once per batch so 60 KB still streams in seconds. */
  deltaDelayMs: number;
  fault: Fault | undefined;
  record: StreamRecord;
}

const SLOW_DELTA_MS = 15;
const LONG_REPLY_BATCH = 25;

function chunk(options: StreamReplyOptions, choices: unknown[], extra: Record<string, unknown> = {}): string {
  const body = { id: options.id, object: 'chat.completion.chunk', created: options.created, model: options.modelName, choices, ...extra };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function deltaChunk(options: StreamReplyOptions, delta: Record<string, unknown>, finishReason: string | null = null): string {
  return chunk(options, [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
}

function* plannedChunks(options: StreamReplyOptions): Generator<string> {
  const { reply } = options;
  yield deltaChunk(options, { role: 'assistant', content: '' });
  if (reply.toolCall) {
    const { id, name, arguments: args } = reply.toolCall;
    yield deltaChunk(options, { tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] });
    for (const piece of argumentPieces(args)) yield deltaChunk(options, { tool_calls: [{ index: 0, function: { arguments: piece } }] });
  }
  for (const text of reply.reasoningDeltas) yield deltaChunk(options, { reasoning: text, content: null });
  for (const text of reply.contentDeltas) yield deltaChunk(options, { content: text });
  yield deltaChunk(options, {}, reply.finishReason);
  if (options.includeUsage) yield chunk(options, [], { usage: reply.usage });
}

/** Tool-call arguments in 5-character fragments, as models stream them. */
function argumentPieces(args: string): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < args.length; index += 5) pieces.push(args.slice(index, index + 5));
  return pieces;
}

export function plannedChunkCount(reply: PlannedReply, includeUsage: boolean): number {
  const toolChunks = reply.toolCall ? 1 + argumentPieces(reply.toolCall.arguments).length : 0;
  return 2 + toolChunks + reply.reasoningDeltas.length + reply.contentDeltas.length + (includeUsage ? 1 : 0);
}

export async function streamReply(res: ServerResponse, options: StreamReplyOptions): Promise<void> {
  const { fault, record, reply } = options;
  res.on('close', () => {
    if (!res.writableFinished && record.state === 'open') record.state = 'client-disconnected';
  });
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();

  if (fault?.kind === 'error-200') {
    // The gateway reports upstream failures inside the stream as an error event.
    const error = { error: { message: fault.message ?? 'Upstream model failed', type: 'upstream_error', code: fault.code ?? 'bad_response_status_code' } };
    await writeChunk(res, `data: ${JSON.stringify(error)}\n\n`);
    record.state = 'done';
    res.end();
    return;
  }
  if (fault?.kind === 'slow-first-token') {
    await pause(fault.delayMs ?? 2_000);
    if (isGone(res)) return;
  }

  const delayMs = reply.slow ? SLOW_DELTA_MS : options.deltaDelayMs;
  const pauseEvery = reply.long && !reply.slow ? LONG_REPLY_BATCH : 1;
  const dropAfter = fault?.kind === 'drop-midstream' ? (fault.afterChunks ?? 3) : undefined;
  const malformedAfter = fault?.kind === 'malformed-chunk' ? (fault.afterChunks ?? 2) : undefined;

  // Chunks between two pauses go out in one socket write, as a busy server's would.
  let batch = '';
  // Chunk index of the first content delta: after the role chunk and the reasoning deltas.
  const firstContentChunk = reply.contentDeltas.length > 0 ? 1 + reply.reasoningDeltas.length : -1;
  let contentQueued = false;
  const flush = async (): Promise<boolean> => {
    const text = batch;
    batch = '';
    if (contentQueued && record.firstContentAt === undefined && text !== '') record.firstContentAt = wallClockMs();
    return text === '' || (await writeChunk(res, text));
  };
  for (const text of plannedChunks(options)) {
    if (record.chunksWritten === firstContentChunk) contentQueued = true;
    if (record.chunksWritten === dropAfter) {
      // Let the chunks so far reach the wire, then cut the connection without a proper end.
      const sent = batch;
      batch = '';
      if (sent !== '' && !isGone(res)) await new Promise<void>((resolve) => res.write(sent, () => resolve()));
      record.state = 'dropped';
      res.socket?.destroy();
      return;
    }
    if (record.chunksWritten === malformedAfter) batch += 'data: {"id":"broken","choices":[{"delta":{"content":\n\n';
    batch += text;
    record.chunksWritten++;
    // Without a delay, still yield now and then so one fast stream does not hold up the process.
    if (record.chunksWritten % pauseEvery === 0 && (delayMs > 0 || record.chunksWritten % 32 === 0)) {
      if (!(await flush())) return;
      await pause(delayMs);
      if (isGone(res)) return;
    }
  }
  batch += 'data: [DONE]\n\n';
  if (!(await flush())) return;
  record.state = 'done';
  res.end();
}
