// The JSON Schema of a tool's input, produced from its zod schema (docs/shapes.md): VS Code's manifest
// (test/unit/tools/manifest.test.ts compares it), the MCP server's tools/list and the input check all
// read this one form. zod's output is trimmed to the subset in ../api.ts: no $schema, no safe-integer
// bounds zod adds to every z.int(), no propertyNames on records (keys are always strings in JSON).

import { z } from 'zod';
import type { JsonSchema } from './api';

function trimmed(node: Record<string, unknown>): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === 'propertyNames') continue;
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, trimmed(property as Record<string, unknown>)]));
    } else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object' && value !== null) {
      out[key] = trimmed(value as Record<string, unknown>);
    } else out[key] = value;
  }
  return out as unknown as JsonSchema;
}

const cache = new WeakMap<z.ZodType, JsonSchema & { type: 'object' }>();

/** The input schema as JSON Schema (what a caller may send: defaults make a field optional). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema & { type: 'object' } {
  let json = cache.get(schema);
  if (!json) {
    json = trimmed(z.toJSONSchema(schema, { io: 'input', target: 'draft-07' }) as Record<string, unknown>) as JsonSchema & { type: 'object' };
    cache.set(schema, json);
  }
  return json;
}
