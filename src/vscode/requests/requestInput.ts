// What Sign Request and Send Signed Request act on: a catalog operation with its parameters, or a
// hand-written request. Commands accept it as an argument (tests, "Open Sign Request" from an error)
// or ask for the missing parts step by step.

import * as vscode from 'vscode';
import type { HttpMethod, OperationId, OperationSpec, RawRequest } from '../../core/compute/api';
import { operationTitle } from './operationTitles';
import { ConfigError } from '../../core/errors';
import { errorText } from '../errors/errorText';
import { wordedError } from '../errors/errorWords';

export type { RequestInput } from '../../core/requests/records';
import type { RequestInput } from '../../core/requests/records';

/** A command argument: complete, or naming only the operation (the rest is asked for). */
export type RequestArgument = RequestInput | { kind: 'pick-params'; operation: OperationId } | undefined;

/**
 * Reads a command argument: `{ operation, params?, encrypt? }` or `{ raw: { method, path, query?, body?, encrypt? } }`.
 * Anything else is refused with a message rather than half-used.
 */
export function parseRequestArgument(value: unknown, operations: readonly OperationSpec[]): RequestArgument {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') throw badArgument(vscode.l10n.t('an object'));
  const record = value as Record<string, unknown>;
  if (record.raw !== undefined) return { kind: 'raw', request: parseRawRequest(record.raw) };
  const operation = record.operation;
  if (typeof operation !== 'string' || !operations.some((spec) => spec.id === operation)) {
    throw badArgument(vscode.l10n.t('"operation" to be one of {0}', operations.map((spec) => spec.id).join(', ')));
  }
  const id = operation as OperationId;
  if (record.params === undefined) return { kind: 'pick-params', operation: id };
  if (typeof record.params !== 'object' || record.params === null || Array.isArray(record.params)) throw badArgument(vscode.l10n.t('"params" to be an object'));
  if (record.encrypt !== undefined && typeof record.encrypt !== 'boolean') throw badArgument(vscode.l10n.t('"encrypt" to be a boolean'));
  return {
    kind: 'operation',
    operation: id,
    params: record.params as Record<string, unknown>,
    ...(record.encrypt !== undefined ? { encrypt: record.encrypt } : {}),
  };
}

function parseRawRequest(value: unknown): RawRequest {
  if (typeof value !== 'object' || value === null) throw badArgument(vscode.l10n.t('"raw" to be an object'));
  const raw = value as Record<string, unknown>;
  if (raw.method !== 'GET' && raw.method !== 'POST') throw badArgument(vscode.l10n.t('"raw.method" to be GET or POST'));
  if (typeof raw.path !== 'string') throw badArgument(vscode.l10n.t('"raw.path" to be a string'));
  const query = raw.query;
  if (
    query !== undefined &&
    !(Array.isArray(query) && query.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string')))
  ) {
    throw badArgument(vscode.l10n.t('"raw.query" to be [name, value] string pairs'));
  }
  if (raw.encrypt !== undefined && typeof raw.encrypt !== 'boolean') throw badArgument(vscode.l10n.t('"raw.encrypt" to be a boolean'));
  return {
    method: raw.method,
    path: raw.path,
    ...(query !== undefined ? { query: query as [string, string][] } : {}),
    ...(raw.body !== undefined ? { body: raw.body } : {}),
    ...(raw.encrypt !== undefined ? { encrypt: raw.encrypt } : {}),
  };
}

function badArgument(expected: string): ConfigError {
  return new ConfigError(vscode.l10n.t('The request argument is malformed: expected {0}.', expected));
}

/** Converts one typed field value; returns an error message instead when it does not fit the type. */
export function convertField(field: OperationSpec['fields'][number], text: string): { value?: unknown; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return field.required ? { error: vscode.l10n.t('{0} is required.', field.name) } : {};
  if (field.type === 'string') return { value: text };
  const number = Number(trimmed);
  if (field.type === 'integer' && !(Number.isSafeInteger(number) && /^-?\d+$/.test(trimmed))) return { error: vscode.l10n.t('{0} must be a whole number.', field.name) };
  if (field.type === 'number' && !Number.isFinite(number)) return { error: vscode.l10n.t('{0} must be a number.', field.name) };
  return { value: number };
}

/**
 * `a=1&b=x%20y` → [['a','1'], ['b','x y']]: decoded here because the client encodes each pair exactly
 * once; the signed path then shows the canonical encoding.
 */
export function parseQuery(text: string): [string, string][] {
  const trimmed = text.trim().replace(/^\?/, '');
  if (trimmed === '') return [];
  return trimmed.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const [key, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    try {
      return [decodeURIComponent(key), decodeURIComponent(value)];
    } catch (error) {
      throw new ConfigError(vscode.l10n.t('The query part "{0}" has a malformed %-escape.', pair), vscode.l10n.t('Write %25 for a literal "%".'), { cause: error });
    }
  });
}

/** Parses a JSON body typed by hand; undefined for an empty box. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(vscode.l10n.t('The body is not valid JSON: {0}.', errorText(error)), undefined, {
      cause: error,
    });
  }
}

export function jsonBodyError(text: string, mustBeObject: boolean): string | undefined {
  try {
    const value = parseJsonBody(text);
    if (mustBeObject && value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      return vscode.l10n.t('Enter a JSON object, e.g. {"key": "value"}.');
    }
    return undefined;
  } catch (error) {
    return wordedError(error).message;
  }
}

export function describeRequest(input: RequestInput, operations: readonly OperationSpec[]): string {
  if (input.kind === 'raw') return `${input.request.method} ${input.request.path}`;
  const spec = operations.find((candidate) => candidate.id === input.operation);
  return spec ? operationTitle(spec) : input.operation;
}

export const METHODS: readonly HttpMethod[] = ['GET', 'POST'];
