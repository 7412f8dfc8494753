// The public surface of the compute core (interface A): what the VS Code layer and the tests code against.
// Implementations live beside this file; this file holds types only.

import type { ComputeToolkitError, ErrorKind } from '../errors';

import type { NasOperationId, NasOperationTypes } from '../nas/operations';

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
}

/** Every operation the catalog knows, by a stable id used by commands and tests. */
export type OperationId =
  | 'resource.search'
  | 'task.list'
  | 'task.create'
  | 'task.detail'
  | 'task.pause'
  | 'task.recover'
  | 'task.stop'
  | 'task.changePoints'
  | 'node.list'
  | 'node.log'
  | 'storage.list'
  | 'storage.encryptCheck'
  | 'task.update'
  | 'node.events'
  | 'node.delete'
  | 'billing.byTime'
  | 'billing.byTask'
  | NasOperationId;

export type HttpMethod = 'GET' | 'POST';

// ---- Payload shapes (docs/platform.md; fields the platform may add are kept via index signatures) ----

export interface ResourceSpec {
  device_name: string;
  region: string;
  gpu_name: string | null;
  gpu_count: number;
  gpu_memory: number; // MiB
  memory: number; // MiB
  cpu_cores: number;
}

export interface Region {
  region: string;
  region_name: string;
  /** Points per second (1 yuan = 1,000,000 points); null when not sold. */
  price: number | null;
  discount_price: number | null;
  inventory: number;
  mark: { resource: ResourceSpec; mark: string; region_name?: string | null };
}

export interface Device {
  device_name: string;
  gpu_name: string;
  gpu_memory: number;
  gpu_count: number;
  memory: number;
  cpu_cores: number;
  disk_size: number;
  disk_type: string;
  regions: Region[];
}

export interface Paged<T> {
  count: number;
  results: T[];
}

export type TaskStatus = 'Pending' | 'Running' | 'Paused' | 'End' | 'Other';

export interface RemotePort {
  service_port: number;
  url?: string | null;
}

export interface ServiceSpec {
  service_name: string;
  service_image: string;
  remote_ports: RemotePort[];
  env?: string | null;
  shared_mem_size?: number | null;
  start_script_v2?: { command: string | null; args: string[] } | null;
  storage_config?: { storage_id: number; target_dir: string }[] | null;
  /** liveness / startup / readiness probes; task update requires the key (null when none). */
  health_checks?: Record<string, unknown> | null;
}

export interface TaskResource {
  resource: ResourceSpec;
  region_name: string;
  mark: string;
  weight?: number;
}

export interface TaskSummary {
  task_id: number;
  task_name: string;
  status: TaskStatus;
  points: number;
  runing_points: number; // sic: the platform spells it with one n
  billing_value: number;
  forecast_value: number;
  create_time: string;
  resources: TaskResource[];
  services: (ServiceSpec & { service_id: number })[];
}

export interface TaskDetail extends TaskSummary {
  task_type?: string;
  namespace?: string;
  billing_points?: number;
}

export interface TaskCreateBody {
  task_name: string;
  points: number;
  task_type?: 'Deployment';
  resources: { mark: string; resource: ResourceSpec; region_name: string }[];
  services: ServiceSpec[];
}

export type NodeStatus = 'Running' | 'Pending' | 'Succeeded' | 'Failed' | 'End' | 'Unknown';

export interface TaskNode {
  point_id: number;
  name: string;
  status: NodeStatus;
  region: string;
  region_name: string;
  resource: { gpu_name: string | null; gpu_count: number; cpu_cores: number };
  billing_value: number;
}

/** Node list item fields beyond TaskNode that the platform documents (docs/money.md). */
export interface NodeDetail extends TaskNode {
  containers?: { service_name?: string | null; name: string; image: string; gpu_limit?: number; reason?: string | null; message?: string | null; exit_code?: unknown }[];
  runing_time?: number;
  describe_dto?: { last_restart_time?: string | null; restart_count: number };
}

/** One Kubernetes-style node event (type Normal / Warning). */
export interface NodeEvent {
  reason: string;
  message: string;
  type: string;
  event_time: string;
  service: string | null;
}

export type BillingRange = 'hour' | 'day' | 'week' | 'month';

export interface BillingQuery {
  range: BillingRange;
  /** RFC 3339 with an offset, e.g. 2026-01-01T00:00:00+08:00. */
  start_time: string;
  end_time: string;
  page?: number;
  page_size?: number;
}

/** Spend in one time bucket; amounts in points. */
export interface BillingRecord {
  billing_coin: number;
  discount_coin: number;
  start_time: string;
  end_time: string;
}

/** Spend of one task over the queried window; amounts in points. */
export interface TaskBillingRecord {
  task_id: number;
  task_type: 'Deployment' | 'Development' | null;
  task_name: string | null;
  billing_coin: number;
  discount_coin: number;
}

/** Task update overwrites the whole task: the body is the detail as read, edited. */
export interface TaskUpdateBody extends Omit<TaskCreateBody, 'task_type'> {
  task_id: number;
  [more: string]: unknown;
}

export interface StorageItem {
  storage_id: number;
  storage_type: 'Juicefs' | 'ShareStorage';
  storage_name: string;
  juicefs_region_id: number;
  bucket: string;
  dir: string;
  endpoint: string;
  status: 'Activate' | 'Unactivated' | 'Delete';
  create_time?: string;
  /** Capacity and usage in bytes (not always sent). */
  size?: number | null;
  use_size?: number | null;
  [more: string]: unknown;
}

export interface StorageCheckBody {
  storage_name: string;
  juicefs_region_id: number;
  bucket: string;
  dir: string;
  endpoint: string;
  access_key: string;
  secret_key: string;
}

/** Parameters (query for GET, JSON body for POST) and `data` results per operation. */
export interface OperationTypes extends NasOperationTypes {
  // Required query parameters are the ones the platform's docs mark `required: true`; comma-separated lists.
  'resource.search': { params: { task_type: string; device_type: string }; result: Paged<Device> };
  'task.list': {
    params: { type: string; status: string; search_value?: string; page?: number; page_size?: number };
    result: Paged<TaskSummary>;
  };
  'task.create': { params: TaskCreateBody; result: { task_id: number } };
  'task.detail': { params: { task_id: number }; result: TaskDetail };
  'task.pause': { params: { task_id: number }; result: null };
  'task.recover': { params: { task_id: number }; result: null };
  'task.stop': { params: { task_id: number }; result: null };
  'task.changePoints': { params: { task_id: number; points: number }; result: null };
  'node.list': {
    params: { task_id: number; status?: string; page?: number; page_size?: number };
    result: Paged<TaskNode>;
  };
  'node.log': { params: { task_id: number; point_id: number; service_id: number }; result: { logs: string } };
  'storage.list': {
    params: { storage_type: string; status: string; page?: number; page_size?: number };
    result: Paged<StorageItem>;
  };
  'storage.encryptCheck': { params: StorageCheckBody; result: unknown };
  'task.update': { params: TaskUpdateBody; result: null };
  'node.events': { params: { point_id: number }; result: { events: NodeEvent[] } };
  'node.delete': { params: { point_id: number }; result: null };
  'billing.byTime': { params: BillingQuery & { task_ids?: string }; result: Paged<BillingRecord> };
  'billing.byTask': { params: BillingQuery; result: Paged<TaskBillingRecord> };
}

export type OperationParams<K extends OperationId> = OperationTypes[K]['params'];
export type OperationResult<K extends OperationId> = OperationTypes[K]['result'];

/**
 * What an operation does to the account: `read` changes nothing; `write` creates or changes something
 * (and may cost money); `destructive` deletes something that cannot be brought back. Confirmations,
 * Sign Request and the agent tools decide from this, never from the operation's name or method.
 */
export type OperationEffect = 'read' | 'write' | 'destructive';

export interface OperationSpec {
  id: OperationId;
  title: string;
  effect: OperationEffect;
  method: HttpMethod;
  path: string;
  /** 'never' | 'optional' | 'required' (platform reference flags 加密). */
  encryption: 'never' | 'optional' | 'required';
  /** Safe to retry on 429/5xx/network (reads; never creates). */
  idempotent: boolean;
  /** Parameter names and types, for wizards and the Sign Request command. */
  fields: {
    name: string;
    type: 'string' | 'integer' | 'number';
    required: boolean;
    secret?: boolean;
    /** A value the platform's docs give for a required parameter; the Sign Request wizard pre-fills it. */
    example?: string;
  }[];
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

/** Why a compute call most likely failed, from local evidence only (docs/platform.md). */
export type LikelyCause =
  | { kind: 'signature-mismatch-local'; detail: string } // our own self-verify failed: wrong key pair / key damaged
  | { kind: 'token-or-key-unregistered'; detail: string } // local evidence clean: a refused token or an unregistered key (the codes cannot tell)
  | { kind: 'clock-skew'; detail: string; offsetMs: number }
  | { kind: 'timestamp-format'; detail: string }
  | { kind: 'version-type'; detail: string }
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
