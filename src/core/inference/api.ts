// The public surface of the model client (interface B, chat-completions convention): types only.

import type { RetryOptions } from '../http/retry';
import type { Logger } from '../log';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** Assistant: the tools it called (sent back with the results in the next request). */
  tool_calls?: ToolCall[];
  /** Tool: which call this message answers. */
  tool_call_id?: string;
}

/** A function tool offered to the model (OpenAI `tools[].function`). */
export interface ChatTool {
  /** ^[a-zA-Z0-9_-]{1,64}$: OpenAI-compatible servers refuse other names. */
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: object;
}

/** A tool call the model made: arguments as the JSON text it streamed (parse with parseToolArguments). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatRequest {
  /** `<vendor>/<model>` */
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  tools?: ChatTool[];
  /** 'required' makes the model call a tool; default 'auto' (only sent with tools). */
  tool_choice?: 'auto' | 'required';
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  /** False for embedding, rerank, image, speech and document models (filtered out of chat pickers). */
  chat: boolean;
  /** Context length the server was started with (vLLM's `max_model_len`), when it says. */
  maxModelLen?: number;
}

/** One step of a streamed reply. */
export type ChatStreamEvent =
  | { type: 'content'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: string | null }
  /** A complete tool call, assembled from its streamed fragments (emitted when the model finishes it). */
  | { type: 'tool-call'; call: ToolCall };

export interface ChatCompletion {
  content: string;
  reasoning?: string;
  usage?: Usage;
  finishReason: string | null;
  /** The model name the server reports (may differ from the requested id). */
  model?: string;
}

/** How a streamed reply ended. A stream that ended without [DONE] keeps its text and is marked incomplete. */
export interface StreamOutcome {
  content: string;
  reasoning: string;
  usage?: Usage;
  finishReason: string | null;
  complete: boolean;
  /** `data:` lines that were not valid JSON: skipped, counted. */
  malformedEvents: number;
  /** The model name the server reports in its chunks. */
  model?: string;
  /** Why an incomplete stream stopped (e.g. the connection closed before `[DONE]`). */
  interruption?: string;
  /** Tool calls the model made, complete and in index order. */
  toolCalls?: ToolCall[];
}

export interface ModelClientOptions {
  /** e.g. https://api.suanli.cn/v1 (includes the version segment). */
  apiBaseUrl: string;
  /** Called per request so a profile switch or a key change takes effect at once. */
  apiKey: () => Promise<string | undefined>;
  /**
   * A server that needs no key (a user's own deployment, docs/deployments.md): without a key the request
   * carries no Authorization header instead of failing. Default false (the platform's API needs one).
   */
  keyOptional?: boolean;
  /**
   * Time to connect and receive response headers (ms, default 30000) for the model list and streams. A whole
   * (non-streamed) reply is generated before its headers, so complete() waits up to firstTokenTimeoutMs instead.
   */
  connectTimeoutMs?: number;
  /** Streaming: time from the response headers to the first content or reasoning token (ms, default 60000). */
  firstTokenTimeoutMs?: number;
  /** Streaming: longest pause between chunks (ms, default 60000). */
  idleTimeoutMs?: number;
  /**
   * Overall deadline of a non-streamed call (model list, whole completion), ms. Default: the header wait
   * (connectTimeoutMs, or firstTokenTimeoutMs for complete()) plus 60000 for the body. Abort the call's
   * signal to give up earlier (a Refresh that replaces a stuck load).
   */
  requestDeadlineMs?: number;
  /**
   * Retries before the first byte on 429/500/502/503/504/network errors: pass the `request.maxRetries`
   * setting (default 2 when not passed). Wins over `retry.maxRetries`.
   */
  maxRetries?: number;
  /** Backoff between those retries, the same shape as the compute client's (core/http/retry.ts has the policy). */
  retry?: RetryOptions;
  /** How to wait between retries; tests inject one that records the delays. Default: a real, abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
}

export interface ModelClient {
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion>;
  /**
   * Streams a reply. Iterating yields events; the returned promise-like `outcome` settles when the stream
   * ends (complete or not). Aborting the signal (or breaking out of the loop) aborts the HTTP request.
   */
  stream(request: ChatRequest, signal?: AbortSignal): ChatStream;
}

export interface ChatStream extends AsyncIterable<ChatStreamEvent> {
  /** Resolves when the stream ends; rejects with a ComputeToolkitError (AbortedError on Stop). */
  readonly outcome: Promise<StreamOutcome>;
  /** What has arrived so far (complete: false until `[DONE]`); after Stop this holds the partial reply. */
  progress(): StreamOutcome;
}
