// Parameter readers for query strings and JSON bodies. Every failure is C999 with the field's
// path first (e.g. "services[0].remote_ports[1].service_port: expected an integer"), strict about
// types the way a typed server is: "3" is not an integer and 1.5 is not a node count.

import { invalidParam } from './codes';

export type JsonObject = Record<string, unknown>;

interface IntRange {
  min?: number;
  max?: number;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value;
}

function checkRange(field: string, value: number, range: IntRange): number {
  if (range.min !== undefined && value < range.min) throw invalidParam(field, `must be at least ${range.min}, got ${value}`);
  if (range.max !== undefined && value > range.max) throw invalidParam(field, `must be at most ${range.max}, got ${value}`);
  return value;
}

// ---- query strings ----

export function queryInt(query: URLSearchParams, field: string, range: IntRange = {}): number | undefined {
  const raw = query.get(field);
  if (raw === null) return undefined;
  if (!/^-?\d{1,15}$/.test(raw)) throw invalidParam(field, `expected an integer, got "${raw.slice(0, 40)}"`);
  return checkRange(field, Number(raw), range);
}

export function requireQueryInt(query: URLSearchParams, field: string, range: IntRange = {}): number {
  const value = queryInt(query, field, range);
  if (value === undefined) throw invalidParam(field, 'is required');
  return value;
}

/** Comma-separated list; each item must be one of `allowed` when given. Undefined when absent or empty. */
export function queryList(query: URLSearchParams, field: string, allowed?: readonly string[]): string[] | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  const items = raw.split(',').map((item) => item.trim());
  for (const item of items) {
    if (allowed && !allowed.includes(item)) throw invalidParam(field, `"${item.slice(0, 40)}" is not one of ${allowed.join(', ')}`);
  }
  return items;
}

/** A required comma-separated list (the platform's docs mark the parameter `required: true`). */
export function requireQueryList(query: URLSearchParams, field: string, allowed: readonly string[]): string[] {
  const items = queryList(query, field, allowed);
  if (!items) throw invalidParam(field, `is required (one or more of ${allowed.join(', ')}, comma-separated)`);
  return items;
}

/** Largest page the sandbox serves. The platform documents no maximum; 100 keeps clients honest about paging. */
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  page: number;
  pageSize: number;
}

/** `page` and `page_size` (defaults 1 and 10); `together` refuses one without the other. */
export function queryPaging(query: URLSearchParams, options: { together?: boolean } = {}): Paging {
  const page = queryInt(query, 'page', { min: 1 });
  const pageSize = queryInt(query, 'page_size', { min: 1, max: MAX_PAGE_SIZE });
  if (options.together && (page === undefined) !== (pageSize === undefined)) {
    throw invalidParam(page === undefined ? 'page' : 'page_size', 'is required with ' + (page === undefined ? 'page_size' : 'page'));
  }
  return { page: page ?? 1, pageSize: pageSize ?? 10 };
}

export function paginate<T>(items: readonly T[], paging: Paging): { count: number; results: T[] } {
  const start = (paging.page - 1) * paging.pageSize;
  return { count: items.length, results: items.slice(start, start + paging.pageSize) };
}

// ---- JSON bodies ----

export function asObject(field: string, value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParam(field, `expected an object, got ${describe(value)}`);
  return value as JsonObject;
}

export function asArray(field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw invalidParam(field, `expected an array, got ${describe(value)}`);
  return value;
}

export function requireInt(object: JsonObject, key: string, range: IntRange = {}, path = key): number {
  const value = object[key];
  if (value === undefined) throw invalidParam(path, 'is required');
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidParam(path, `expected an integer, got ${describe(value)}`);
  return checkRange(path, value, range);
}

export function requireString(object: JsonObject, key: string, path = key): string {
  const value = object[key];
  if (value === undefined) throw invalidParam(path, 'is required');
  if (typeof value !== 'string') throw invalidParam(path, `expected a string, got ${describe(value)}`);
  if (value.trim() === '') throw invalidParam(path, 'must not be empty');
  return value;
}

/** Optional string that may also be null (the platform's `string | null` fields). */
export function optionalString(object: JsonObject, key: string, path = key): string | null | undefined {
  const value = object[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw invalidParam(path, `expected a string or null, got ${describe(value)}`);
  return value;
}
