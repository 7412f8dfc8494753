// Running or confirming a tool: its input checked against its one schema (docs/shapes.md), errors as
// text, the result capped and secrets masked. The JSON Schema derived from the tool's zod schema gives the
// worded problems (schema.ts: every wrong field named with its fix, linear time), then zod's parse gives
// the typed value with the schema's defaults applied. The same JSON Schema is what VS Code's manifest and
// the MCP server's tools/list show. This module holds zod: the editor loads it on first use
// (lazyModules.ts, toolRunner), the MCP server imports it.

import { ConfigError } from '../errors';
import type { JsonSchema, ToolConfirmation, ToolContext, ToolDefinition, ToolResult } from './api';
import { confirmation } from './confirmation';
import { errorText } from './errors';
import { finalText, RESULT_LIMIT_CHARS } from './format';
import { jsonSchemaOf } from './inputJsonSchema';
import * as toolInputs from './inputs/index';
import { validateInput } from './schema';

type ObjectSchema = JsonSchema & { type: 'object' };

/** The JSON Schema of the tool's input, derived from its zod schema (VS Code's manifest and MCP's tools/list show it). */
export function inputSchemaOf(tool: ToolDefinition): ObjectSchema {
  return jsonSchemaOf(tool.input(toolInputs));
}

/** Object entries that are null or undefined, dropped at every depth: the check reads them as absent. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== null && entry !== undefined) out[key] = withoutNulls(entry);
  return out;
}

/** The input as the tool's type, or a ConfigError naming every wrong field (validateInput's message). */
export function checkToolInput(tool: ToolDefinition, input: unknown): Record<string, unknown> {
  const checked = validateInput(inputSchemaOf(tool), input);
  const parsed = tool.input(toolInputs).safeParse(withoutNulls(checked));
  if (parsed.success) return parsed.data;
  // The JSON Schema check passed, so this is a rule only zod states; name the field all the same.
  const issue = parsed.error.issues[0];
  const path = issue?.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('') ?? '';
  throw new ConfigError(`Invalid tool input: input${path} ${issue?.message ?? 'is invalid'}.`, 'Fix the listed fields and call the tool again.');
}

/** Runs a tool: never throws; failures come back as text with isError set. */
export async function runTool(tool: ToolDefinition, input: unknown, context: ToolContext): Promise<ToolResult> {
  const limit = context.resultLimitChars ?? RESULT_LIMIT_CHARS;
  try {
    const checked = checkToolInput(tool, input);
    const text = await tool.run(checked, context);
    return { text: finalText(text, context.secrets, limit), isError: false };
  } catch (error) {
    return { text: finalText(errorText(error), context.secrets, limit), isError: true };
  }
}

/**
 * The confirmation for a write or destructive tool (undefined for reads). When the fresh reads it
 * needs fail, it still confirms, naming the profile and saying the cost could not be read.
 */
export async function confirmTool(tool: ToolDefinition, input: unknown, context: ToolContext): Promise<ToolConfirmation | undefined> {
  if (tool.effect === 'read' || !tool.confirm) return undefined;
  let checked: Record<string, unknown>;
  try {
    checked = checkToolInput(tool, input);
  } catch {
    // The run will report the bad input; nothing to confirm yet.
    return undefined;
  }
  try {
    const confirmed = await tool.confirm(checked, context);
    return { title: finalText(confirmed.title, context.secrets, 500), message: finalText(confirmed.message, context.secrets, 4000) };
  } catch (error) {
    return confirmation(tool.effect, context.profile, `${tool.displayName}?`, [
      `Input: ${finalText(JSON.stringify(checked), context.secrets, 500)}`,
      `The task and its cost could not be read first: ${finalText(errorText(error).split('\n')[0] ?? '', context.secrets, 300)}`,
    ]);
  }
}
