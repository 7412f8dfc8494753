// Checks a tool's input against its JSON schema (the subset in api.ts) before anything is sent, so a
// model that fills a field wrongly gets a message naming the field and the fix, not a platform error.
// MCP clients do not validate input for the server, and VS Code validates only what it can; this is
// the one check both paths share. Linear in the size of the input.

import { ConfigError } from '../errors';
import type { JsonSchema } from './api';

/** Longest string a tool accepts in any field (names, images, commands). */
const MAX_STRING_CHARS = 4096;

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}…"` : JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

function check(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') {
        problems.push(`${path} must be a string (got ${describeValue(value)})`);
        return;
      }
      const max = schema.maxLength ?? MAX_STRING_CHARS;
      if (value.length > max) problems.push(`${path} must be at most ${max} characters (got ${value.length})`);
      if (schema.minLength !== undefined && value.trim().length < schema.minLength) problems.push(`${path} must not be empty`);
      break;
    }
    case 'integer':
    case 'number': {
      const ok = typeof value === 'number' && (schema.type === 'integer' ? Number.isSafeInteger(value) : Number.isFinite(value));
      if (!ok) {
        problems.push(`${path} must be ${schema.type === 'integer' ? 'a whole number' : 'a number'} (got ${describeValue(value)})`);
        return;
      }
      if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path} must be ≥ ${schema.minimum} (got ${value})`);
      if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path} must be ≤ ${schema.maximum} (got ${value})`);
      break;
    }
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${path} must be true or false (got ${describeValue(value)})`);
      return;
    case 'array': {
      if (!Array.isArray(value)) {
        problems.push(`${path} must be an array (got ${describeValue(value)})`);
        return;
      }
      if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${path} needs at least ${schema.minItems} item(s)`);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) {
        problems.push(`${path} takes at most ${schema.maxItems} item(s) (got ${value.length})`);
        return;
      }
      if (schema.items) value.forEach((item, index) => check(schema.items as JsonSchema, item, `${path}[${index}]`, problems));
      break;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push(`${path} must be an object (got ${describeValue(value)})`);
        return;
      }
      const record = value as Record<string, unknown>;
      const properties = schema.properties ?? {};
      for (const name of schema.required ?? []) {
        if (record[name] === undefined || record[name] === null) problems.push(`${path}.${name} is required`);
      }
      const keys = Object.keys(record);
      if (typeof schema.additionalProperties === 'object') {
        if (keys.length > 100) problems.push(`${path} takes at most 100 entries (got ${keys.length})`);
      }
      for (const key of keys.slice(0, 100)) {
        const entry = record[key];
        if (entry === undefined || entry === null) continue;
        const property = properties[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
        if (property) check(property, entry, `${path}.${key}`, problems);
        else if (schema.additionalProperties === false) {
          problems.push(`${path}.${key} is not a parameter of this tool (known: ${Object.keys(properties).join(', ') || 'none'})`);
        }
      }
      return;
    }
  }
  if (schema.enum && !schema.enum.includes(value as string | number)) {
    problems.push(`${path} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(value)})`);
  }
}

/** The input as a record, or a ConfigError listing every problem (at most 10) in one message. */
export function validateInput(schema: JsonSchema, input: unknown): Record<string, unknown> {
  const value = input === undefined || input === null ? {} : input;
  const problems: string[] = [];
  check(schema, value, 'input', problems);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).join('; ');
    throw new ConfigError(`Invalid tool input: ${shown}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''}.`, 'Fix the listed fields and call the tool again.');
  }
  return value as Record<string, unknown>;
}

/** Tool names OpenAI-compatible servers accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
