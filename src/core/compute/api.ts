// The public surface of the compute core (interface A): what the VS Code layer and the tests code against.
// Implementations live beside this file; this file holds types only.

import type { ComputeToolkitError, ErrorKind } from '../errors';

export type AuthMode = 'token' | 'rsa';

/** Secrets of one profile, read from SecretStorage by the host and handed to the client. */
export interface ComputeCredentials {
  mode: AuthMode;
  token: string;
  /** RSA mode: the client's private key (PKCS#8 PEM, PKCS#1 PEM, bare Base64 PKCS#8 or PKCS#1). */
  privateKey?: string;
  /** RSA mode with encryption: the platform's public key (SPKI PEM, PKCS#1 PEM or bare Base64 SPKI). */
  platformPublicKey?: string;
}

export interface ComputeClientOptions {
  /** e.g. https://openapi.suanli.cn (paths carry /api/...). Plain http only for loopback. */
  baseUrl: string;
  /** Called per request so a profile switch or a secret change takes effect at once. */
  credentials: () => Promise<ComputeCredentials>;
  /** Header `version`; default "1.0.0". Always sent as a string. */
  version?: string;
  /** Whole-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** Retries for safe operations on 429/502/503/504/network errors (default 3). */
  maxRetries?: number;
  /** Backoff timing (defaults: 500 ms base, 20 s cap); `maxRetries` above wins over `retry.maxRetries`. */
  retry?: import('../http/retry').RetryOptions;
  logger?: import('../log').Logger;
  /** Clock used for timestamps; tests inject a skewed one. Default Date.now. */
  now?: () => number;
  /**
   * Which residue of the ms clock this client's timestamps use, so processes of one user never issue
   * the same one. Default: this process's claimed slot (timestampSlots.ts); tests pass their own.
   */
  timestampPartition?: () => import('./timestampSlots').TimestampPartition;
  /**
   * Told about every attempt of every call this client makes, besides a call's own `onExchange`: the
   * editor's request history. Gets the same masked record the request debugger shows; a throwing
   * observer never breaks the call.
   */
  onExchange?: (exchange: ExchangeRecord) => void;
}


// Operation ids, their params and results come from the catalog (catalog.ts, assembled from each area's
// operations.ts); the payload shapes live beside their operations and are re-exported here for callers.
import type { HttpMethod, OperationEntry } from './operationEntry';
import type { OperationId, OperationTypes } from './catalog';
export type { HttpMethod, OperationEffect, OperationField } from './operationEntry';
export type { OperationId, OperationTypes } from './catalog';
export type { Paged } from './wire';
export type { Device, Region, ResourceSpec } from '../resources/operations';
export type {
  NodeDetail,
  NodeEvent,
  NodeStatus,
  RemotePort,
  ServiceSpec,
  TaskCreateBody,
  TaskDetail,
  TaskNode,
  TaskResource,
  TaskStatus,
  TaskSummary,
  TaskUpdateBody,
} from '../tasks/operations';
export type { StorageCheckBody, StorageItem } from '../storage/operations';
export type { BillingQuery, BillingRange, BillingRecord, TaskBillingRecord } from '../spend/operations';

export type OperationParams<K extends OperationId> = OperationTypes[K]['params'];
export type OperationResult<K extends OperationId> = OperationTypes[K]['result'];

export interface OperationSpec extends OperationEntry {
  id: OperationId;
}

/** A request described by hand (the generic "send any signed request" path). */
export interface RawRequest {
  method: HttpMethod;
  /** Path starting with '/', e.g. /api/deployment/task/search */
  path: string;
  /** Query pairs in order; encoded exactly once by the client. */
  query?: [string, string][];
  /** JSON body (POST); serialized compactly. */
  body?: unknown;
  encrypt?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Encrypt the body with the platform public key (operations with encryption 'optional'). */
  encrypt?: boolean;
  /** Told about every attempt, answered or not (the request debugger's response document and history). */
  onExchange?: (exchange: ExchangeRecord) => void;
}

/** One attempt as sent and as answered, secrets masked, the body cut at a bound. */
export interface ExchangeRecord {
  /** 0 for the first attempt, then one per retry. */
  attempt: number;
  /** The catalog operation sent, or 'raw' for a request written by hand. */
  operation: OperationId | 'raw';
  /** The envelope's code when the answer was one ("0000", "C001"). */
  envelopeCode?: string;
  request: PreparedRequest;
  /** Absent when no answer came (timeout, network failure, cancellation). */
  status?: number;
  /** Response headers in arrival order, values masked and cut. */
  responseHeaders: [string, string][];
  /** From sending to the end of the body (or the failure). */
  elapsedMs: number;
  /** The response body, masked, at most `EXCHANGE_BODY_LIMIT` characters. */
  responseBody: string;
  /** Characters of the whole body (more than responseBody.length when cut). */
  responseBodyChars: number;
  /** Why no answer came. */
  failure?: string;
}

/** Exactly what would be (or was) sent. Secrets appear only in `secretHeaders`' masked form. */
export interface PreparedRequest {
  method: HttpMethod;
  url: string;
  /** Path with ?query exactly as sent and signed. */
  pathWithQuery: string;
  /** Headers for display: token and sign_str masked (4+4). */
  displayHeaders: Record<string, string>;
  /** Body exactly as sent ("" when none); the Base64 ciphertext when encrypted. */
  body: string;
  /** The plaintext JSON when the body is encrypted (secret fields masked). */
  plaintextBody?: string;
  encrypted: boolean;
  mode: AuthMode;
  version: string;
  timestamp: string;
  /** RSA mode: the exact string to sign, with the token masked for display. */
  stringToSignForDisplay?: string;
  /** RSA mode: hex of the UTF-8 bytes of the real string to sign, token bytes masked. */
  stringToSignHexForDisplay?: string;
  /** RSA mode: Base64 signature, masked (4+4). */
  signatureForDisplay?: string;
  /** RSA mode: the signature verifies against the public key derived from the private key. */
  selfVerified?: boolean;
  /** A curl command with $COMPUTE_TOKEN / $SIGN_STR variables instead of secrets. */
  curl: string;
}

export interface ClockSkew {
  /** server time − local time, in ms (positive: local clock is behind). */
  offsetMs: number;
  /** Round-trip time of the measuring request. */
  rttMs: number;
  /** |offset| ≥ 5 minutes: the platform will reject signed requests. */
  outsideWindow: boolean;
}

/**
 * Why a compute call most likely failed, from local evidence only (docs/platform.md). `detail` is the
 * English explanation (log, MCP); the editor words it from `kind` and the evidence fields (errors/classify.ts).
 */
export type LikelyCause =
  | { kind: 'signature-mismatch-local'; detail: string } // our own self-verify failed: wrong key pair / key damaged
  | { kind: 'token-or-key-unregistered'; detail: string; encrypted?: boolean } // local evidence clean: a refused token or an unregistered key (the codes cannot tell)
  | { kind: 'clock-skew'; detail: string; offsetMs: number }
  | { kind: 'timestamp-format'; detail: string; timestamp?: string }
  | { kind: 'version-type'; detail: string; version?: string }
  | { kind: 'token'; detail: string }
  | { kind: 'encryption-key'; detail: string }
  | { kind: 'unknown'; detail: string };

export interface ComputeApiErrorShape extends ComputeToolkitError {
  kind: Extract<ErrorKind, 'api' | 'auth'>;
  /** Envelope code as received, e.g. "C001". */
  code: string;
  /** Envelope message (`msg` or `message`). */
  serverMessage: string;
  operation: OperationId | 'raw';
  likelyCause: LikelyCause;
}

export interface ComputeClient {
  /** Calls one catalog operation and returns `data`. Throws ComputeToolkitError subclasses. */
  call<K extends OperationId>(
    operation: K,
    params: OperationParams<K>,
    options?: CallOptions,
  ): Promise<OperationResult<K>>;
  /** Sends any signed request; returns the parsed envelope's data. */
  send(request: RawRequest, options?: CallOptions): Promise<unknown>;
  /** Builds (and signs) what would be sent, without sending. */
  prepare<K extends OperationId>(operation: K, params: OperationParams<K>, options?: CallOptions): Promise<PreparedRequest>;
  prepareRaw(request: RawRequest, options?: CallOptions): Promise<PreparedRequest>;
  /** Measures clock skew against the server's Date header (one cheap request). */
  measureClockSkew(signal?: AbortSignal): Promise<ClockSkew>;
  /** The catalog, for commands and wizards. */
  readonly operations: readonly OperationSpec[];
  /** Drops cached key objects and learned fallbacks (call after a secret or profile change). */
  reset(): void;
}
