// The operations catalog (docs/platform.md) and how a call's parameters become the
// exact path, query and body that are signed and sent.

import { ConfigError, coreText } from '../errors';
import type { HttpMethod, OperationEffect, OperationId, OperationSpec, RawRequest } from './api';
import { desiredStateOf, type DesiredState } from '../tasks/desiredState';
import { compactJson } from './compactJson';

import { OPERATION_CATALOG } from './catalog';
export { OPERATION_CATALOG };
export type { OperationEntry } from './operationEntry';

/** The catalog as a list, in declaration order (wizards and Sign Request list operations in this order). */
export const OPERATIONS: readonly OperationSpec[] = (Object.keys(OPERATION_CATALOG) as OperationId[]).map((id) => ({ id, ...OPERATION_CATALOG[id] }));

/**
 * Body fields that are required but not scalar, so they cannot appear in `fields` (task create
 * needs the platform's resources[] and services[] besides task_name and points: docs/platform.md).
 */
const REQUIRED_ARRAYS: Partial<Record<OperationId, readonly string[]>> = {
  'task.create': ['resources', 'services'],
  'task.update': ['resources', 'services'],
  'job.create': ['resources', 'services'],
};

/** Secret body fields that never reach logs or displays, beyond the catalog's `secret` fields. */
const EXTRA_SECRET_FIELDS: Partial<Record<OperationId, readonly string[]>> = {
  'task.create': ['repository_password'],
  'task.update': ['repository_password'],
};

/**
 * Task detail is a POST with a JSON body in the spec but a GET with ?task_id= on the real platform
 * (docs/platform.md). The client sends the spec's form first and switches on HTTP 404/405.
 */
export const DETAIL_FALLBACK = { operation: 'task.detail' as const, method: 'GET' as const, path: '/api/deployment/task/detail' };

const byId = new Map<OperationId, OperationSpec>(OPERATIONS.map((op) => [op.id, op]));

export function operationSpec(id: OperationId): OperationSpec {
  const spec = byId.get(id);
  if (!spec) throw new ConfigError(coreText('op.unknown', String(id)));
  return spec;
}

/**
 * The effect of a request: a catalog operation's declared effect; a hand-written request is a read
 * only when it is a GET (a POST to any path may create, change or delete).
 */
export function effectOf(request: { kind: 'operation'; operation: OperationId } | { kind: 'raw'; method: HttpMethod }): OperationEffect {
  if (request.kind === 'operation') return operationSpec(request.operation).effect;
  return request.method === 'GET' ? 'read' : 'write';
}

export function secretFieldNames(id: OperationId): string[] {
  const spec = operationSpec(id);
  return [...spec.fields.filter((f) => f.secret).map((f) => f.name), ...(EXTRA_SECRET_FIELDS[id] ?? [])];
}

/**
 * RFC 3986 component encoding: encodeURIComponent plus ! ' ( ) *. Those five are left alone by
 * encodeURIComponent, and WHATWG URL parsing (used by undici) would re-encode `'` in a query: the
 * bytes on the wire would then differ from the bytes signed. Encoding them here makes the path
 * stable under parsing, so what is signed is exactly what is sent.
 */
export function encodeQueryComponent(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch (error) {
    // URIError: an unpaired UTF-16 surrogate has no UTF-8 form.
    throw new ConfigError(coreText('op.badQueryCharacter'), undefined, { cause: error });
  }
  return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `k=v&k=v` in the given order, each key and value encoded exactly once. */
export function encodeQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([key, value]) => `${encodeQueryComponent(key)}=${encodeQueryComponent(value)}`).join('&');
}

/** Path plus `?query` when there are pairs. */
export function pathWithQuery(path: string, pairs: readonly (readonly [string, string])[]): string {
  if (!path.startsWith('/')) throw new ConfigError(coreText('op.pathSlash', path));
  if (path.includes('?') || path.includes('#')) {
    throw new ConfigError(coreText('op.queryInPath', path));
  }
  return pairs.length === 0 ? path : `${path}?${encodeQuery(pairs)}`;
}

/** What a call turns into before credentials, timestamps and signatures are added. */
export interface RequestPlan {
  operation: OperationId | 'raw';
  method: HttpMethod;
  /** Path (without base) plus ?query, exactly as it will be sent and signed. */
  pathWithQuery: string;
  /** Compact JSON text for POST; undefined for no body (signed as ""). */
  jsonBody?: string;
  encrypt: boolean;
  idempotent: boolean;
  /** Values to mask wherever the plaintext body is displayed. */
  secretValues: string[];
  /** State-setting task operations: the state task detail shows once the operation took effect. */
  desiredState?: DesiredState;
}

/** Validates `params` against the catalog and builds the plan for `id` (in its spec form). */
export function planOperation(id: OperationId, params: unknown, encrypt: boolean | undefined, method?: HttpMethod): RequestPlan {
  const spec = operationSpec(id);
  const record = asRecord(params, spec);
  validateFields(spec, record);
  const wantsEncryption = spec.encryption === 'required' || (spec.encryption === 'optional' && encrypt === true);
  if (encrypt === true && spec.encryption === 'never') {
    throw new ConfigError(coreText('op.noEncryption', spec.title), coreText('op.noEncryption.hint'));
  }
  if (encrypt === false && spec.encryption === 'required') {
    throw new ConfigError(coreText('op.needsEncryption', spec.title));
  }
  const effectiveMethod = method ?? spec.method;
  const secretValues = secretFieldNames(id)
    .map((name) => record[name])
    .filter((value): value is string => typeof value === 'string' && value.length > 0);
  const desiredState = desiredStateOf(id, record);

  if (effectiveMethod === 'GET') {
    const path = id === 'task.detail' ? DETAIL_FALLBACK.path : spec.path;
    return {
      operation: id,
      method: 'GET',
      pathWithQuery: pathWithQuery(path, queryPairs(spec, record)),
      encrypt: false,
      idempotent: spec.idempotent,
      secretValues,
    };
  }
  return {
    operation: id,
    method: 'POST',
    pathWithQuery: pathWithQuery(spec.path, []),
    jsonBody: compactJson(record),
    encrypt: wantsEncryption,
    idempotent: spec.idempotent,
    secretValues,
    ...(desiredState ? { desiredState } : {}),
  };
}

/** The plan for a hand-written request (the generic signed request path). */
export function planRaw(request: RawRequest, encrypt: boolean | undefined): RequestPlan {
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw new ConfigError(coreText('op.method', String(request.method)));
  }
  const wantsEncryption = encrypt ?? request.encrypt ?? false;
  if (request.method === 'GET' && request.body !== undefined) {
    throw new ConfigError(coreText('op.getBody'));
  }
  if (wantsEncryption && request.body === undefined) {
    throw new ConfigError(coreText('op.encryptNoBody'));
  }
  for (const [key, value] of request.query ?? []) {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new ConfigError(coreText('op.queryPairs'));
    }
  }
  return {
    operation: 'raw',
    method: request.method,
    pathWithQuery: pathWithQuery(request.path, request.query ?? []),
    ...(request.body !== undefined ? { jsonBody: compactJson(request.body) } : {}),
    encrypt: wantsEncryption,
    // A hand-written request may create something; only plain reads are repeated.
    idempotent: request.method === 'GET',
    secretValues: [],
  };
}

function asRecord(params: unknown, spec: OperationSpec): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new ConfigError(coreText('op.paramsObject', spec.title));
  }
  return params as Record<string, unknown>;
}

function validateFields(spec: OperationSpec, record: Record<string, unknown>): void {
  for (const field of spec.fields) {
    const value = record[field.name];
    if (value === undefined || value === null) {
      if (field.required) throw new ConfigError(coreText('op.required', spec.title, field.name));
      continue;
    }
    if (field.type === 'string' && typeof value !== 'string') {
      throw new ConfigError(coreText('op.string', spec.title, field.name));
    }
    if (field.type === 'string' && field.required && value === '') {
      throw new ConfigError(coreText('op.notEmpty', spec.title, field.name));
    }
    if (field.type === 'integer' && !(typeof value === 'number' && Number.isSafeInteger(value))) {
      throw new ConfigError(coreText('op.integer', spec.title, field.name, String(JSON.stringify(value))));
    }
    if (field.type === 'number' && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new ConfigError(coreText('op.number', spec.title, field.name));
    }
  }
  for (const name of REQUIRED_ARRAYS[spec.id] ?? []) {
    const value = record[name];
    if (!Array.isArray(value) || value.length === 0) {
      throw new ConfigError(coreText('op.array', spec.title, name));
    }
  }
  if (spec.method === 'GET') {
    const known = new Set(spec.fields.map((f) => f.name));
    const unknown = Object.keys(record).filter((key) => !known.has(key) && record[key] !== undefined);
    if (unknown.length > 0) {
      throw new ConfigError(coreText('op.unknownParameters', spec.title, unknown.map((k) => `"${k}"`).join(', ')), coreText('op.unknownParameters.hint'));
    }
  }
}

/** Query pairs in catalog order (stable, so the same call always signs the same path). */
function queryPairs(spec: OperationSpec, record: Record<string, unknown>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const field of spec.fields) {
    const value = record[field.name];
    if (value === undefined || value === null) continue;
    pairs.push([field.name, String(value)]);
  }
  return pairs;
}
