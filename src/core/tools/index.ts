// The compute tools: one list of definitions shared by VS Code's language-model tools and the MCP
// server, and the one way to run or confirm a tool (input checked, errors as text, result capped,
// secrets masked). Extension point: a `compute_spend` read tool joins TOOLS once billing lands in the
// compute catalog.

import type { ToolConfirmation, ToolContext, ToolDefinition, ToolResult } from './api';
import { confirmation } from './confirmation';
import { explainFailure } from './diagnoseTool';
import { errorText } from './errors';
import { finalText, RESULT_LIMIT_CHARS } from './format';
import { getTask, listStorage, listTasks, nodeLog, searchGpus } from './readTools';
import { validateInput } from './schema';
import { applySpec, planSpec, validateSpec } from './specTools';
import { changeNodeCount, createTask, pauseTask, recoverTask, stopTask } from './writeTools';
import { getJob, jobLogs, runJob, stopJob } from './jobTools';
import { nasListDirectory, nasListVolumes, nasReadFile, nasUploadFile } from './nasTools';
import { listMachines, machineConnection, rentMachine, searchMachines } from './machineTools';

export type { JsonSchema, ToolConfirmation, ToolContext, ToolDefinition, ToolEffect, ToolProfile, ToolResult } from './api';
export { TOOL_NAME_PATTERN, validateInput } from './schema';
export { RESULT_LIMIT_CHARS } from './format';
export type { NasFileAccess } from './nasTools';

/** Every tool, reads first. Names are stable: clients and settings refer to them. */
export const TOOLS: readonly ToolDefinition[] = [
  searchGpus,
  listTasks,
  getTask,
  nodeLog,
  listStorage,
  explainFailure,
  getJob,
  jobLogs,
  nasListVolumes,
  nasListDirectory,
  nasReadFile,
  validateSpec,
  planSpec,
  createTask,
  changeNodeCount,
  pauseTask,
  recoverTask,
  stopTask,
  runJob,
  stopJob,
  nasUploadFile,
  applySpec,
  searchMachines,
  listMachines,
  machineConnection,
  rentMachine,
];

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(name);
}

/** The tools a client may see: reads always, writes and destructive ones only when allowed. */
export function toolsFor(allowWrites: boolean): readonly ToolDefinition[] {
  return allowWrites ? TOOLS : TOOLS.filter((tool) => tool.effect === 'read');
}

/** Runs a tool: never throws; failures come back as text with isError set. */
export async function runTool(tool: ToolDefinition, input: unknown, context: ToolContext): Promise<ToolResult> {
  const limit = context.resultLimitChars ?? RESULT_LIMIT_CHARS;
  try {
    const checked = validateInput(tool.inputSchema, input);
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
    checked = validateInput(tool.inputSchema, input);
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
