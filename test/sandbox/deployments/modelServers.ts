// The public URLs of model-serving tasks (rule: ./modelServerRule.ts): one HTTP listener on 127.0.0.1 per
// task, opened when its nodes start (create, recover, update) and closed when it is paused or stopped — so
// a paused task's URL refuses connections, as a released node's would. After the node runs, the server
// pulls the image and loads the weights for `loadMs` (configurable: SandboxOptions.modelLoadMs, env
// SANDBOX_MODEL_LOAD_MS, POST /__sandbox/deployments/load-ms); until then the gateway answers 503
// "no healthy upstream", and the node log says pulling → loading weights → ready.
//   GET  /v1/models             the served model (vLLM's list shape, max_model_len)
//   POST /v1/chat/completions   whole or streamed, the sandbox's deterministic replies

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceSpec } from '../../../src/core/compute/api';
import { BodyTooLargeError, readBody, sendJson } from '../http';
import type { SandboxModel } from '../inference/models';
import { planReply } from '../inference/replies';
import { openAiError } from '../inference/respond';
import { StreamLog } from '../inference/streamLog';
import { plannedChunkCount, streamReply } from '../inference/streaming';
import { isProblem, validateChatRequest } from '../inference/validation';
import { modelServerOf, type ModelServerSpec } from './modelServerRule';

const LOOPBACK = '127.0.0.1';
export const DEFAULT_MODEL_LOAD_MS = 6_000;
const DELTA_DELAY_MS = 4;

export type ModelServerPhase = 'pulling' | 'loading' | 'ready';

interface Hosted {
  taskId: number;
  spec: ModelServerSpec;
  /** Real ms the node runs (the container starts): pulling begins. */
  runningAt: number;
  /** Pulling takes the first third of it, loading the weights the rest. */
  loadMs: number;
  server: Server | undefined;
  /** Kept across pause/recover so the URL stays the same when the port is still free. */
  port: number | undefined;
  requests: number;
}

export interface ModelServersOptions {
  loadMs?: number;
  now: () => number;
}

function loadMsFromEnv(): number | undefined {
  const raw = process.env['SANDBOX_MODEL_LOAD_MS'];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

function bearerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

export class ModelServers {
  private readonly hosted = new Map<number, Hosted>();
  private readonly streams = new StreamLog();
  private loadMs: number;
  private sequence = 0;

  constructor(private readonly options: ModelServersOptions) {
    this.loadMs = options.loadMs ?? loadMsFromEnv() ?? DEFAULT_MODEL_LOAD_MS;
  }

  get modelLoadMs(): number {
    return this.loadMs;
  }

  /** Tasks activated from now on load for this long (control endpoint). */
  setLoadMs(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('loadMs must be a non-negative integer');
    this.loadMs = ms;
  }

  /** The task's nodes start at `runningAt`: open its URL when one of its services is a model server. */
  activated(taskId: number, services: readonly ServiceSpec[], runningAt: number): void {
    const spec = services.map(modelServerOf).find((found) => found !== undefined);
    const previous = this.hosted.get(taskId);
    if (spec === undefined) {
      if (previous) this.deactivated(taskId);
      this.hosted.delete(taskId);
      return;
    }
    const hosted: Hosted = previous ?? { taskId, spec, runningAt, loadMs: this.loadMs, server: undefined, port: undefined, requests: 0 };
    hosted.spec = spec;
    // The load delay is part of the start time: a server activated later loads for the delay set then.
    hosted.runningAt = runningAt;
    hosted.loadMs = this.loadMs;
    this.hosted.set(taskId, hosted);
    if (!hosted.server) this.listen(hosted);
  }

  /** Paused or stopped: the URL stops answering (connections refused). */
  deactivated(taskId: number): void {
    const hosted = this.hosted.get(taskId);
    if (!hosted?.server) return;
    const server = hosted.server;
    hosted.server = undefined;
    server.close();
    server.closeAllConnections();
  }

  /**
   * The public URL of a task's port: `http://127.0.0.1:PORT` for a model server that is listening, null
   * while it is still binding, undefined when this port is not a model server's (the default URL applies).
   */
  publicUrl(taskId: number, servicePort: number): string | null | undefined {
    const hosted = this.hosted.get(taskId);
    if (!hosted || hosted.spec.servicePort !== servicePort) return undefined;
    return hosted.server && hosted.port !== undefined && hosted.server.listening ? `http://${LOOPBACK}:${hosted.port}` : null;
  }

  phase(taskId: number): ModelServerPhase | undefined {
    const hosted = this.hosted.get(taskId);
    return hosted ? this.phaseOf(hosted) : undefined;
  }

  /** Container log lines of a model server (vLLM's start-up lines), or undefined when the service is not one. */
  logLines(taskId: number, service: ServiceSpec, nodeReadyAt: number, format: (realMs: number) => string): string[] | undefined {
    const hosted = this.hosted.get(taskId);
    const spec = modelServerOf(service);
    if (!hosted || !spec) return undefined;
    const now = this.options.now();
    const pullMs = Math.floor(hosted.loadMs / 3);
    const readyAt = nodeReadyAt + hosted.loadMs;
    const lines = [`${format(nodeReadyAt)} Pulling image "${service.service_image}"`];
    if (now < nodeReadyAt + pullMs) return lines;
    lines.push(
      `${format(nodeReadyAt + pullMs)} Successfully pulled image "${service.service_image}"`,
      `${format(nodeReadyAt + pullMs)} Started container ${service.service_name}`,
      `${format(nodeReadyAt + pullMs)} INFO [api_server.py] vLLM API server version 0.11.0 (sandbox)`,
      `${format(nodeReadyAt + pullMs)} INFO [model_runner.py] Starting to load model ${spec.model}...`,
      `${format(nodeReadyAt + pullMs)} INFO [weight_utils.py] Loading model weights (safetensors)...`,
    );
    if (now < readyAt) return lines;
    const took = ((hosted.loadMs - pullMs) / 1000).toFixed(2);
    lines.push(
      `${format(readyAt)} INFO [default_loader.py] Loading weights took ${took} seconds`,
      `${format(readyAt)} INFO [launcher.py] Available routes are: /v1/models, /v1/chat/completions`,
      `${format(readyAt)} INFO:     Uvicorn running on http://0.0.0.0:${spec.servicePort} (Press CTRL+C to quit)`,
      `${format(readyAt)} INFO:     Application startup complete.`,
    );
    // vLLM logs its throughput every 10 s; the last 50 of those at most.
    const beats = Math.floor((now - readyAt) / 10_000);
    for (let beat = Math.max(1, beats - 49); beat <= beats; beat++) {
      lines.push(`${format(readyAt + beat * 10_000)} INFO [loggers.py] Avg prompt throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs`);
    }
    return lines;
  }

  /** The task's weights are loaded from now on (its load delay ends now; tests). */
  finishLoad(taskId: number): void {
    const hosted = this.hosted.get(taskId);
    if (hosted) hosted.loadMs = Math.max(0, Math.min(hosted.loadMs, this.options.now() - hosted.runningAt));
  }

  /** How many requests a task's server answered after it was ready (tests). */
  requestCount(taskId: number): number {
    return this.hosted.get(taskId)?.requests ?? 0;
  }

  async close(): Promise<void> {
    for (const taskId of this.hosted.keys()) this.deactivated(taskId);
    this.hosted.clear();
  }

  private phaseOf(hosted: Hosted): ModelServerPhase {
    const now = this.options.now();
    const startedAt = hosted.runningAt;
    if (now < startedAt + Math.floor(hosted.loadMs / 3)) return 'pulling';
    return now < startedAt + hosted.loadMs ? 'loading' : 'ready';
  }

  private listen(hosted: Hosted): void {
    const server = createServer((req, res) => {
      this.answer(hosted, req, res).catch((error: unknown) => {
        if (error instanceof BodyTooLargeError) return sendJson(res, 413, openAiError(error.message, 'invalid_request_error', null));
        if (req.socket.destroyed) return;
        console.error('[sandbox] model server failed:', error);
        if (res.headersSent) res.destroy();
        else sendJson(res, 500, openAiError('sandbox model server error', 'server_error', null));
      });
    });
    hosted.server = server;
    const bind = (port: number): void => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        // The old port was taken meanwhile: the URL changes, as a rescheduled task's may.
        if (error.code === 'EADDRINUSE' && port !== 0) bind(0);
        else console.error('[sandbox] model server could not listen:', error);
      });
      server.listen(port, LOOPBACK, () => {
        if (hosted.server === server) hosted.port = (server.address() as AddressInfo).port;
        else server.close();
      });
    };
    bind(hosted.port ?? 0);
  }

  private async answer(hosted: Hosted, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (this.phaseOf(hosted) !== 'ready') {
      // What the platform's gateway answers while the container is not serving yet.
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('no healthy upstream');
      return;
    }
    const { spec } = hosted;
    if (spec.apiKey !== undefined && bearerKey(req) !== spec.apiKey) {
      sendJson(res, 401, { error: 'Unauthorized' });
      return;
    }
    hosted.requests++;
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    const path = url.pathname.replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (path === '/v1/models' && method === 'GET') {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: spec.servedModel, object: 'model', created: Math.floor(hosted.runningAt / 1000), owned_by: 'vllm', root: spec.model, parent: null, max_model_len: spec.maxModelLen }],
      });
      return;
    }
    if (path === '/health' && method === 'GET') {
      res.writeHead(200).end();
      return;
    }
    if (path !== '/v1/chat/completions' || method !== 'POST') {
      sendJson(res, 404, { detail: 'Not Found' });
      return;
    }
    const request = validateChatRequest(body);
    if (isProblem(request)) {
      sendJson(res, 400, openAiError(request.message, 'BadRequestError', 400, request.param));
      return;
    }
    if (request.model !== spec.servedModel) {
      sendJson(res, 404, openAiError(`The model \`${request.model}\` does not exist.`, 'NotFoundError', 404, 'model'));
      return;
    }
    const model: SandboxModel = { id: spec.servedModel, displayName: spec.servedModel, ownedBy: 'vllm', created: 0, supportedEndpointTypes: ['openai'], chat: true };
    const reply = planReply(model, request);
    const id = `chatcmpl-${(++this.sequence).toString(36)}${randomBytes(6).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream) {
      const record = this.streams.start(id, model.id, plannedChunkCount(reply, request.includeUsage));
      await streamReply(res, { id, created, modelName: model.id, reply, includeUsage: request.includeUsage, deltaDelayMs: DELTA_DELAY_MS, fault: undefined, record });
      return;
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.contentDeltas.join(''), tool_calls: [] }, logprobs: null, finish_reason: reply.finishReason }],
      usage: reply.usage,
    });
  }
}
