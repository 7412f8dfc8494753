// Small response helpers for interface B: JSON bodies, the OpenAI error shape, pauses that end early
// when the client has gone away.

import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as wait } from 'node:timers/promises';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** `{error:{message, type, param, code}}` as OpenAI-compatible servers send it. */
export function openAiError(message: string, type: string, code: string | number | null, param: string | null = null): unknown {
  return { error: { message, type, param, code } };
}

export function sendHtml(res: ServerResponse, status: number): void {
  const page = `<!DOCTYPE html><html><head><title>${status} Bad Gateway</title><style>body{font-family:sans-serif}</style></head>` +
    `<body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(page)) });
  res.end(page);
}

/** True once the client closed the connection (Stop, timeout) or the socket was destroyed. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed;
}

/** Waits `ms` (or yields one turn when 0, so a fast stream does not starve the rest of the process). */
export async function pause(ms: number): Promise<void> {
  if (ms > 0) await wait(ms);
  else await nextTurn();
}

/** Writes and honours back-pressure; resolves false if the client is gone. */
export async function writeChunk(res: ServerResponse, text: string): Promise<boolean> {
  if (isGone(res)) return false;
  if (res.write(text)) return true;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
  return !isGone(res);
}
