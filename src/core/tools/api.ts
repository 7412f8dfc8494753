// The shape of a compute tool: one definition serves VS Code's language-model tools and the MCP
// server. Types only; the definitions live in readTools.ts and writeTools.ts.

import type { z } from 'zod';
import type * as ToolInputsModule from './inputs/index';
import type { ComputeClient, OperationEffect, OperationId } from '../compute/api';
import type { NasFileAccess, SpecFileAccess } from './ports';

/**
 * What a tool does to the user's account, from the compute catalog. `read` changes nothing; `write`
 * changes state or spends money and can be undone (pause ↔ recover, node count back); `destructive`
 * loses something for good.
 */
export type ToolEffect = OperationEffect;

/** The JSON Schema subset the tools' schemas produce (inputJsonSchema.ts) and validateInput checks. */
export interface JsonSchema {
  type: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: readonly unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
}

/** The profile a tool acts on, as confirmations name it. */
export interface ToolProfile {
  label: string;
  /** The profile id spec files name (core/specs/profileRef.ts); the MCP server has none. */
  id?: string;
  /** Labels the profile had in other display languages (the sandbox's), still accepted in spec files. */
  knownLabels?: readonly string[];
  /** dev / test / prod / sandbox; prod stands out in every confirmation. */
  environment: string;
}

/** What a tool runs with: the active profile's client, the profile, cancellation, and secrets to keep out. */
export interface ToolContext {
  client: ComputeClient;
  profile: ToolProfile;
  signal?: AbortSignal;
  /** Values that must never appear in a result (masked if a server echoes them). */
  secrets?: readonly string[];
  /** Largest result in characters (default RESULT_LIMIT_CHARS). */
  resultLimitChars?: number;
  /** Spec files (the spec tools); absent when the host cannot read them. */
  specFiles?: SpecFileAccess;
  /** Tells the host's store that a tool changed something (the services call it); absent in the MCP server. */
  wake?: () => void | Promise<void>;
  /** NAS volume files and confined local files (the NAS tools); absent when the host has none. */
  nasFiles?: NasFileAccess;
}

/** A confirmation before a tool that spends money or destroys state runs. Plain text with markdown. */
export interface ToolConfirmation {
  title: string;
  message: string;
}

export interface ToolResult {
  text: string;
  isError: boolean;
}

/** The tools' input schemas (inputs/index.ts), handed to `input` by run.ts: definitions import only their types. */
export type ToolInputs = typeof ToolInputsModule;

/** What every tool's input is at least: a record of named fields. */
export type ToolInput = Record<string, unknown>;

export interface ToolDefinition<I extends ToolInput = ToolInput> {
  /** Matches ^[a-zA-Z0-9_-]{1,64}$: OpenAI-compatible servers refuse other names. */
  name: string;
  /** For `#` references in VS Code's chat. */
  toolReferenceName: string;
  displayName: string;
  /** When a model should use the tool, and what it returns. */
  modelDescription: string;
  /** One line for people (tool pickers). */
  userDescription: string;
  /**
   * The input's one schema, picked from inputs/ (zod, loaded with run.ts on first use, not at activation):
   * the type of `run`'s input, the check and the JSON Schema (inputSchemaOf) all derive from it (docs/shapes.md).
   */
  input(inputs: ToolInputs): z.ZodType<I>;
  /** The catalog operations the tool may perform. */
  operations: readonly OperationId[];
  /** strongestEffect(operations): set with it, checked by a unit test. */
  effect: ToolEffect;
  /** Repeating the call with the same input does no more than the first call (MCP idempotentHint). */
  idempotent: boolean;
  /** Runs the tool; throws for failures (runTool turns them into text a model can act on). */
  run(input: I, context: ToolContext): Promise<string>;
  /** Write and destructive tools: what the user confirms (may read the platform, never change it). */
  confirm?(input: I, context: ToolContext): Promise<ToolConfirmation>;
  /** A short progress line ("Searching GPU resources…"), from the input as sent (not yet checked). */
  invocationMessage(input: ToolInput): string;
}
