// A tiny HTTP server on 127.0.0.1 for client tests: each test installs the handler it needs and
// reads back exactly what arrived (raw request target, headers, body bytes).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The request target exactly as received (path + query, undecoded). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: ReceivedRequest, res: http.ServerResponse, raw: http.IncomingMessage) => void | Promise<void>;

export interface TestServer {
  url: string;
  readonly requests: ReceivedRequest[];
  handle(handler: Handler): void;
  /** Resolves when the next request has fully arrived (for abort tests: abort only once it is in flight). */
  nextRequest(): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  let handler: Handler = (_req, res) => {
    res.statusCode = 500;
    res.end('no handler installed');
  };
  let waiters: ((request: ReceivedRequest) => void)[] = [];
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const request: ReceivedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const pending = waiters;
      waiters = [];
      pending.forEach((resolve) => resolve(request));
      Promise.resolve(handler(request, res, raw)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(`handler failed: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers JSON with the given status and extra headers. */
export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
