// A Jupyter task's public URL in the sandbox: a loopback proxy in front of the real Jupyter server, as the
// platform's port gateway is. It answers 503 "no healthy upstream" while the server is not listening yet,
// passes WebSocket upgrades unless told not to (then it answers them 400 as a proxy without WebSocket
// support does — whether the platform's URLs pass them is not documented), and can cut every connection or
// swallow what the server sends on the WebSockets open now (a reply lost in flight when a link drops).

import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

const LOOPBACK = '127.0.0.1';

export class JupyterGateway {
  webSockets: boolean;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  /** The open WebSockets' server-to-client flows: `swallow` drops what the server sends from then on. */
  private readonly flows = new Set<{ swallow: boolean }>();
  private bound: string | undefined;

  constructor(private readonly options: { upstreamPort: number; webSockets: boolean }) {
    this.webSockets = options.webSockets;
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connection', (socket) => this.track(socket));
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => this.upgrade(req, socket, head));
  }

  get url(): string | undefined {
    return this.bound;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, LOOPBACK, resolve));
    this.bound = `http://${LOOPBACK}:${(this.server.address() as AddressInfo).port}`;
  }

  /** From now on, what the server sends on the WebSockets open now goes nowhere (new ones pass); how many. */
  swallowServerData(): number {
    for (const flow of this.flows) flow.swallow = true;
    return this.flows.size;
  }

  cutConnections(): number {
    const count = this.sockets.size;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return count;
  }

  async close(): Promise<void> {
    this.bound = undefined;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.cutConnections();
    this.server.closeAllConnections();
    await closed;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    // A client that resets a refused upgrade (the 400 above) or a cut connection: closed, never uncaught.
    socket.on('error', () => socket.destroy());
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = request(
      { host: LOOPBACK, port: this.options.upstreamPort, method: req.method, path: req.url, headers: { ...req.headers, host: `${LOOPBACK}:${this.options.upstreamPort}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // A cut (or the server going away) mid-answer resets it: end ours, never an uncaught error.
        answer.on('error', () => res.destroy());
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('no healthy upstream');
    });
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  }

  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    this.track(socket);
    if (!this.webSockets) {
      socket.end('HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: 24\r\nconnection: close\r\n\r\nWebSocket not supported\n');
      return;
    }
    const upstream = connect(this.options.upstreamPort, LOOPBACK);
    this.track(upstream);
    upstream.once('connect', () => {
      const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
      for (let index = 0; index < req.rawHeaders.length; index += 2) {
        const name = req.rawHeaders[index] ?? '';
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? `${LOOPBACK}:${this.options.upstreamPort}` : (req.rawHeaders[index + 1] ?? '')}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      const flow = { swallow: false };
      this.flows.add(flow);
      upstream.on('data', (chunk: Buffer) => {
        // As pipe() would, with backpressure: a slow reader pauses the server's side.
        if (!flow.swallow && !socket.destroyed && !socket.write(chunk)) {
          upstream.pause();
          socket.once('drain', () => upstream.resume());
        }
      });
      socket.once('close', () => this.flows.delete(flow));
      socket.pipe(upstream);
    });
    const drop = (): void => {
      upstream.destroy();
      socket.destroy();
    };
    // Every error, not only the first: a reset after a cut must never reach the process as uncaught.
    upstream.on('error', drop);
    socket.on('error', drop);
    upstream.once('close', drop);
    socket.once('close', drop);
  }
}
