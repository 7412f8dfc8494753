// How the extension reaches a Jupyter server: @jupyterlab/services' settings with `ws` as the WebSocket, the
// token only in an `Authorization: token …` header (never in a URL, a log or an error), a check that the
// address is Jupyter and the token is right, and a probe that the kernel WebSocket passes (a task's public
// URL may not pass WebSockets; that is undocumented, docs/notebooks.md).

import { ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { JupyterConnectionError } from './errors';

export interface JupyterServer {
  /** http(s)://host[:port][/base/] of the Jupyter server. */
  baseUrl: string;
  /** From SecretStorage, given by the caller. */
  token: string;
}

const MAX_PROBE_BODY = 64 * 1024;

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** A URL without credentials or query, for messages. */
export function shownAddress(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

function authorization(token: string): Record<string, string> {
  return token === '' ? {} : { Authorization: `token ${token}` };
}

/** `ws` with the token header on every connection the library opens. */
function tokenWebSocket(token: string): typeof WebSocket {
  return class TokenWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers: authorization(token) });
    }
  };
}

export function serverSettings(server: JupyterServer): ServerConnection.ISettings {
  const baseUrl = withSlash(server.baseUrl);
  return ServerConnection.makeSettings({
    baseUrl,
    wsUrl: baseUrl.replace(/^http/, 'ws'),
    token: server.token,
    appendToken: false,
    WebSocket: tokenWebSocket(server.token) as unknown as ServerConnection.ISettings['WebSocket'],
  });
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > MAX_PROBE_BODY) {
      await reader.cancel();
      break;
    }
  }
  return text;
}

async function get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<{ status: number; body: string }> {
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'manual', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new JupyterConnectionError('unreachable', `Nothing answers at ${shownAddress(url)}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  }
  return { status: response.status, body: await readCapped(response) };
}

/**
 * Checks that `baseUrl` is a Jupyter server and that it accepts the token: GET /api answers Jupyter's
 * `{"version": …}`, GET /api/kernelspecs with the token is not 401/403. Returns the server version.
 */
export async function checkJupyterServer(server: JupyterServer, signal?: AbortSignal): Promise<string> {
  const base = withSlash(server.baseUrl);
  const api = await get(`${base}api`, {}, signal);
  if (api.status === 502 || api.status === 503 || api.status === 504) throw new JupyterConnectionError('not-ready', `${shownAddress(base)} answers ${api.status}: the server is not ready`, api.status);
  let version: unknown;
  try {
    version = (JSON.parse(api.body) as Record<string, unknown>)['version'];
  } catch {
    version = undefined;
  }
  if (api.status !== 200 || typeof version !== 'string') throw new JupyterConnectionError('not-jupyter', `${shownAddress(base)} is not a Jupyter server (GET /api answered ${api.status})`, api.status);
  const specs = await get(`${base}api/kernelspecs`, authorization(server.token), signal);
  if (specs.status === 401 || specs.status === 403) throw new JupyterConnectionError('wrong-token', `The Jupyter server at ${shownAddress(base)} refused the token (${specs.status})`, specs.status);
  if (specs.status !== 200) throw new JupyterConnectionError('http', `The Jupyter server at ${shownAddress(base)} answered ${specs.status} for its kernels`, specs.status);
  return version.slice(0, 40);
}

/**
 * Opens the kernel's channels WebSocket once and closes it: resolves when the upgrade succeeds, throws
 * `no-websockets` when the address refuses it (any answer but 101, or the connection failing after REST worked).
 */
export async function probeKernelWebSocket(server: JupyterServer, kernelId: string, timeoutMs = 30_000): Promise<void> {
  const settings = serverSettings(server);
  const url = `${settings.wsUrl}api/kernels/${encodeURIComponent(kernelId)}/channels`;
  await new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(url, [], { headers: authorization(server.token), handshakeTimeout: timeoutMs });
    const fail = (detail: string, status?: number): void => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      reject(new JupyterConnectionError('no-websockets', `${shownAddress(server.baseUrl)} does not pass WebSockets (${detail})`, status));
    };
    socket.once('open', () => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.close();
      resolve();
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      fail(`the upgrade was answered ${response.statusCode ?? 'without a status'}`, response.statusCode);
    });
    socket.once('error', (error) => fail(error.message));
  });
}
