// Test doubles for the chat domain: a model client scripted per test (deltas, pauses, failures, a model
// list that can hang until aborted), a ChatFiles that counts what is written, and a session factory.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSession, type ChatSessionDeps } from '../../../../src/core/chat/chatSession';
import { nodeChatFiles, type ChatFiles } from '../../../../src/core/chat/chatFiles';
import { ConversationStore } from '../../../../src/core/chat/conversationStore';
import { AbortedError } from '../../../../src/core/errors';
import type { ChatRequest, ChatStream, ChatStreamEvent, ModelClient, ModelInfo, StreamOutcome } from '../../../../src/core/inference/api';
import { silentLogger } from '../../../../src/core/log';

export interface ScriptedReply {
  deltas: string[];
  /** Wait before each delta (ms). */
  pauseMs?: number;
  /** Fail after the deltas with this error. */
  failWith?: Error;
}

export class FakeModelClient implements ModelClient {
  readonly requests: ChatRequest[] = [];
  listCalls = 0;
  /** When set, listModels waits until aborted (a stuck load). */
  hangListing = false;
  models: ModelInfo[] = [{ id: 'vendor/chat-model', chat: true }, { id: 'vendor/embed', chat: false }];
  reply: ScriptedReply = { deltas: ['Hello', ' there'] };

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    this.listCalls++;
    if (this.hangListing) {
      await new Promise<never>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new AbortedError('aborted')), { once: true });
      });
    }
    return this.models;
  }

  complete(): never {
    throw new Error('not used');
  }

  stream(request: ChatRequest, signal?: AbortSignal): ChatStream {
    this.requests.push(request);
    const script = this.reply;
    let content = '';
    let resolveOutcome!: (value: StreamOutcome) => void;
    let rejectOutcome!: (error: unknown) => void;
    const outcome = new Promise<StreamOutcome>((resolve, reject) => {
      resolveOutcome = resolve;
      rejectOutcome = reject;
    });
    outcome.catch(() => undefined);
    const progress = (complete: boolean): StreamOutcome => ({ content, reasoning: '', finishReason: complete ? 'stop' : null, complete, malformedEvents: 0 });
    async function* events(): AsyncGenerator<ChatStreamEvent> {
      try {
        for (const delta of script.deltas) {
          if (script.pauseMs) await abortableSleep(script.pauseMs, signal);
          if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new AbortedError('aborted');
          content += delta;
          yield { type: 'content', text: delta };
        }
        if (script.failWith) throw script.failWith;
        yield { type: 'usage', usage: { prompt_tokens: 3, completion_tokens: script.deltas.length, total_tokens: 3 + script.deltas.length } };
        resolveOutcome(progress(true));
      } catch (error) {
        rejectOutcome(error);
        throw error;
      }
    }
    const iterable = events();
    return { [Symbol.asyncIterator]: () => iterable, outcome, progress: () => progress(false) };
  }
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new AbortedError('aborted'));
    }, { once: true });
  });
}

/** ChatFiles on a temp folder, recording every write. */
export class CountingFiles implements ChatFiles {
  readonly writes: string[] = [];
  readonly appends: string[] = [];
  constructor(private readonly inner: ChatFiles) {}
  read(name: string, maxBytes: number): Promise<string | undefined> {
    return this.inner.read(name, maxBytes);
  }
  write(name: string, text: string): Promise<number> {
    this.writes.push(name);
    return this.inner.write(name, text);
  }
  append(name: string, text: string): Promise<void> {
    this.appends.push(name);
    return this.inner.append(name, text);
  }
  remove(name: string): Promise<void> {
    return this.inner.remove(name);
  }
  move(from: string, to: string): Promise<boolean> {
    return this.inner.move(from, to);
  }
  list(folder: string): Promise<string[]> {
    return this.inner.list(folder);
  }
  size(name: string): Promise<number | undefined> {
    return this.inner.size(name);
  }
}

export async function tempFolder(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'chat-test-'));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

export function storeAt(path: string): { files: CountingFiles; store: ConversationStore } {
  const files = new CountingFiles(nodeChatFiles(path));
  return { files, store: new ConversationStore(files, silentLogger) };
}

export function sessionWith(store: ConversationStore, client: ModelClient, overrides: Partial<ChatSessionDeps> = {}): ChatSession {
  let lastModel = '';
  return new ChatSession({
    store,
    client: () => Promise.resolve(client),
    newSettings: () => ({ model: '', systemPrompt: 'Be brief.', temperature: 0.5, maxTokens: 256 }),
    lastModel: { get: () => lastModel, set: (model) => (lastModel = model) },
    toTurnError: (error) => ({ kind: 'unknown', message: error instanceof Error ? error.message : String(error), actions: ['retry'] }),
    noModelError: (reason) => new Error(reason),
    logger: silentLogger,
    reportError: (error) => {
      throw error;
    },
    retention: () => 0,
    ...overrides,
  });
}
