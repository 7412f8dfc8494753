// The webview's side of the protocol: numbered requests to the host, each answered by one
// 'request/result', and a typed stream of host messages.

import type { HostMessage, WebviewMessage, WebviewRequest } from '../../shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface RequestResult {
  ok: boolean;
  message: string | undefined;
}

/** What the webview remembers across being hidden or reloaded (restored by VS Code, read by the serializer). */
export interface PersistedWebviewState {
  conversationId?: string;
}

export class HostChannel {
  private readonly api = acquireVsCodeApi();
  private nextRequestId = 1;
  private readonly pending = new Map<number, (result: RequestResult) => void>();

  constructor(onMessage: (message: HostMessage) => void) {
    window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
      const message = event.data;
      if (message.type === 'request/result') {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        resolve?.({ ok: message.ok, message: message.message });
        return;
      }
      onMessage(message);
    });
  }

  /** Sends a request; resolves with the host's answer. */
  request(request: WebviewRequest): Promise<RequestResult> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
      this.api.postMessage({ ...request, requestId });
    });
  }

  rememberConversation(conversationId: string): void {
    const state: PersistedWebviewState = { conversationId };
    this.api.setState(state);
  }
}
