// The part of `ws` (npm, no bundled types; @types/ws is not a dependency) the kernel client uses.
declare module 'ws' {
  import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
  import { EventEmitter } from 'node:events';

  interface ClientOptions {
    headers?: OutgoingHttpHeaders;
    handshakeTimeout?: number;
  }

  class WebSocket extends EventEmitter {
    constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions);
    close(code?: number, reason?: string): void;
    terminate(): void;
    on(event: 'open', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
    once(event: 'open', listener: () => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
    once(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
  }

  export default WebSocket;
}
