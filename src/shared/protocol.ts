// The chat panel's message protocol: what the extension host and the webview say to each other.
// Names are 'area/verb'. Every webview→host message carries a `requestId` the host answers with one
// 'request/result'; the host validates each one at runtime (protocolValidation.ts) before use.
// The webview starts the conversation with 'ready'; the host answers with the full state (the webview
// keeps no state of its own beyond the composer text, so it survives being hidden and disposed).

/** Token counts as the server reported them (chat-completions `usage`). */
export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

/** How a turn ended, or that it is still streaming. */
export type TurnStatus =
  | 'streaming'
  | 'complete'
  /** The user pressed Stop: the partial text is kept. */
  | 'stopped'
  /** The stream ended without [DONE] (dropped, idle timeout): the partial text is kept. */
  | 'incomplete'
  | 'error';

import type { ChatAction } from './chatActions';

export { CHAT_ACTIONS, type ChatAction } from './chatActions';

export interface TurnError {
  /** The error class (`auth`, `timeout`, `http`, …), for the icon and wording. */
  kind: string;
  /** What went wrong and why, without secrets. */
  message: string;
  actions: ChatAction[];
}

/** What an answer from a user's own deployment cost, approximately (docs/deployments.md). */
export interface TurnCost {
  /** Reply seconds × the deployment's ¥/h. */
  yuan: number;
  seconds: number;
  yuanPerHour: number;
  /** Completion tokens, when the server reported usage. */
  tokens?: number;
  /** The deployment (task name) that answered. */
  deployment: string;
}

/** A deployed model in the chat's picker, beside the hosted ones. */
export interface DeployedModelOption {
  /** `deployment:<taskId>/<model>`: what the conversation stores as its model. */
  id: string;
  /** "Qwen/Qwen3-8B — my-task · ¥1.68/h" (the picker's entry). */
  label: string;
  /** "Qwen3-8B · my-task" (the transcript's author, modelDisplayName.ts deployedModelName). */
  name: string;
  available: boolean;
  /** Why it cannot answer now ("paused"), shown beside it. */
  reason?: string;
}

export interface ChatTurn {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Reasoning text some models stream apart from the answer (shown collapsed). */
  reasoning?: string;
  status: TurnStatus;
  /** Assistant turns: the model that answered. */
  model?: string;
  usage?: TokenUsage;
  /** Answers from a user's own deployment: approximate cost (shown under the reply). */
  cost?: TurnCost;
  error?: TurnError;
  /** A visible notice attached to the turn (e.g. "selection truncated to 20,000 characters"). */
  notice?: string;
  createdAt: number;
}

export interface ConversationSettings {
  /** `<vendor>/<model>`; empty until a model is picked or listed. */
  model: string;
  systemPrompt: string;
  temperature: number;
  maxTokens: number;
}

export interface ConversationView {
  id: string;
  title: string;
  settings: ConversationSettings;
  turns: ChatTurn[];
  /** Sum of the usage of every reply that reported it; undefined when none did. */
  usage: TokenUsage | undefined;
  /** A reply is streaming (Send is disabled, Stop enabled). */
  busy: boolean;
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  turnCount: number;
}

// ---------------------------------------------------------------------------------------------
// host → webview

/**
 * Wall-clock times (ms) of a reply's first-token path on the host, carried by its first delta only when
 * the test-only latency probe is on (src/core/chat/latencyProbe.ts); never set for users.
 */
export interface HopTimes {
  /** The host received the send request from the webview. */
  hostReceivedAt?: number;
  /** The model client was ready and the streaming request was handed to it. */
  requestStartedAt?: number;
  /** The first content event came out of the SSE decoder. */
  firstEventAt?: number;
  /** The first delta was handed to webview.postMessage. */
  postedAt?: number;
}

export type HostMessage =
  | {
      type: 'conversation/state';
      conversation: ConversationView;
      /** The newest conversations (bounded) and the active one; search reaches the others. */
      conversations: ConversationSummary[];
      /** How many conversations are kept in all. */
      conversationCount: number;
      /** Label of the active profile, shown in the header ("no profile" when undefined). */
      profileLabel: string | undefined;
    }
  /** Text appended to a streaming assistant turn since the previous delta (coalesced by the host). */
  | { type: 'chat/delta'; conversationId: string; turnId: string; content: string; reasoning: string; hops?: HopTimes }
  | { type: 'models/list'; models: string[]; loading: boolean; error: string | undefined; deployed?: DeployedModelOption[] }
  /** Replaces the composer text (selection-to-prompt) and focuses it. */
  | { type: 'composer/set'; text: string; focus: boolean }
  /** The code attached to the next message, shown as a removable chip ("src/a.py, lines 3–9"); none when undefined. */
  | { type: 'composer/context'; label: string | undefined }
  | { type: 'request/result'; requestId: number; ok: boolean; message: string | undefined };

// ---------------------------------------------------------------------------------------------
// webview → host

// One zod schema per message type; the types are inferred from them (docs/shapes.md).
export type { SettingsPatch, WebviewMessage, WebviewMessageType, WebviewRequest } from './webviewMessageSchema';
