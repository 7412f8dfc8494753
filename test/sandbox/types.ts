// The contract of the strict local sandbox platform: started in-process by tests, or by
// test/sandbox/main.ts for people (`npm run sandbox`, `npm start`) and the real-VS-Code runs.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TaskSeedCounts, TaskSeedResult } from './compute/bulkTasks';
import type { NasControl, NasSandboxOptions } from './nas';
import type { PreheatControl } from './preheat/preheats';
import type { JupyterControl } from './notebooks/jupyterControl';
import type { MetalControl, MetalSandboxOptions } from './metal';

export interface SandboxOptions {
  /** 0 (default) picks a free port on 127.0.0.1. */
  port?: number;
  /** How long a new task stays Pending before it runs (ms, default 3000). */
  pendingMs?: number;
  /** Seed for the generated data (devices, prices, tasks), so runs are reproducible. */
  seed?: number;
  /** Envelope message field: 'message' (the real platform, default) or 'msg' (the spec). */
  envelopeField?: 'message' | 'msg';
  /** How long a new batch job stays Pending before its pods start (ms, default min(pendingMs, 1000)). */
  jobPendingMs?: number;
  /** How long a new image preheat stays Pending before its caches sync (ms, default 500). */
  preheatPendingMs?: number;
  /** Where a NAS volume's files are for job mounts (default: the NAS sandbox's volumeDirectory). */
  volumeDirectory?: (storageId: number) => string | undefined;
  /** NAS timings (Creating, Expanding, Deleting, transfers), SFTP session lifetime, seeding. */
  nas?: NasSandboxOptions;
  /** Bare metal: how long orders wait before Serving. */
  metal?: MetalSandboxOptions;
  /**
   * How long a model-serving task (deployments/modelServerRule.ts) pulls and loads after its node runs
   * before its URL answers (ms; default env SANDBOX_MODEL_LOAD_MS, else 6000).
   */
  modelLoadMs?: number;
  /** false: Jupyter tasks' public URLs refuse WebSockets (default env SANDBOX_JUPYTER_WEBSOCKETS, else true). */
  jupyterWebSockets?: boolean;
}

export interface SandboxCredentials {
  /** A token-mode key: header `token` only (plus version and timestamp). */
  tokenMode: { token: string };
  /** An RSA-mode key: the client's key pair (the sandbox holds the public half) and the platform public key. */
  rsaMode: { token: string; privateKeyPem: string; publicKeyPem: string; platformPublicKeyPem: string };
  /** Bearer key of interface B. */
  modelApiKey: string;
}

/** Served at GET {url}/__sandbox/bootstrap so the extension's "Connect to Local Sandbox" can set itself up. */
export interface SandboxBootstrap {
  computeBaseUrl: string;
  modelApiBaseUrl: string;
  consoleUrl: string;
  credentials: SandboxCredentials;
}

export type FaultTarget = 'compute' | 'inference';

export type FaultKind =
  | 'latency' // delay the answer by delayMs
  | 'status' // answer `status` (e.g. 429 with retryAfterSeconds, 500, 502, 503) with a JSON/plain body
  | 'html' // answer `status` (default 502) with an HTML error page, as a gateway would
  | 'reset' // destroy the socket without an answer
  | 'envelope' // compute: HTTP 200 with envelope {code, message}
  | 'error-200' // inference: HTTP 200 with an OpenAI-style {error:{...}} body
  | 'slow-first-token' // inference stream: wait delayMs before the first chunk
  | 'drop-midstream' // inference stream: destroy the socket after `afterChunks` chunks
  | 'malformed-chunk'; // inference stream: one `data:` line that is not JSON, then carry on

export interface Fault {
  target: FaultTarget;
  kind: FaultKind;
  /** Only requests whose path starts with this are affected (default: all of the target). */
  pathPrefix?: string;
  /** How many requests it affects (default 1). */
  count?: number;
  status?: number;
  retryAfterSeconds?: number;
  delayMs?: number;
  afterChunks?: number;
  code?: string;
  message?: string;
}

export interface FaultQueue {
  inject(fault: Fault): void;
  /** Takes (and counts down) the first fault matching this request, if any. */
  take(target: FaultTarget, path: string): Fault | undefined;
  clear(): void;
  /** Faults still waiting for a request, in order (tests check one was consumed). */
  pending(): readonly Fault[];
}

/** Everything the sandbox server recorded, for assertions (no secrets beyond the test's own). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Envelope code (compute) or HTTP status (inference) that the sandbox answered. */
  outcome: string;
}

export interface Sandbox {
  /** http://127.0.0.1:PORT */
  url: string;
  computeBaseUrl: string;
  /** {url}/v1 */
  modelApiBaseUrl: string;
  credentials: SandboxCredentials;
  faults: FaultQueue;
  /** Most recent requests first, at most 200. */
  readonly requests: readonly RecordedRequest[];
  /** Sandbox's own clock offset in ms (tests move it to simulate skew). */
  setClockOffset(ms: number): void;
  /** Simulates a container crash on a live node: its restart count goes up (and it reads Failed with `fail`). */
  crashNode(pointId: number, options?: { reason?: string; fail?: boolean }): void;
  /** Adds a heavy account's tasks in mixed statuses (also POST /__sandbox/tasks/seed). */
  seedTasks(counts: TaskSeedCounts): TaskSeedResult;
  /** Adds `count` batch jobs that ended long ago (a heavy account's history; jobs/jobs.ts seedEnded); returns their ids. */
  seedEndedJobs(count: number): number[];
  /** The next `count` Spot jobs (default 1) wait in the queue, schedule_status Queued, for `ms` (default 60000). */
  queueSpot(count?: number, ms?: number): void;
  /** NAS volumes, SFTP sessions (a real SFTP server on loopback) and S3 transfers. */
  nas: NasControl;
  /** Image preheat: whether the account has applied for it, how long caching takes (also POST /__sandbox/preheat). */
  preheat: PreheatControl;
  metal: MetalControl;
  /** Load delay of model servers activated from now on (also POST /__sandbox/deployments/load-ms). */
  setModelLoadMs(ms: number): void;
  /** pulling → loading → ready of a model-serving task; undefined when the task serves no model. */
  modelServerPhase(taskId: number): 'pulling' | 'loading' | 'ready' | undefined;
  /** Ends a model server's load now (a test that must see it loading sets a long load, then ends it). */
  finishModelLoad(taskId: number): void;
  /** Jupyter tasks' real servers (also POST /__sandbox/jupyter/websockets and /__sandbox/jupyter/cut). */
  jupyter: JupyterControl;
  close(): Promise<void>;
}

/**
 * Interface B is mounted by the server under /v1. Returns true when it handled the request.
 * `body` is the raw request body (already fully read).
 */
export type InferenceHandler = (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => Promise<boolean>;

export interface InferenceHandlerOptions {
  modelApiKey: string;
  faults: FaultQueue;
}
