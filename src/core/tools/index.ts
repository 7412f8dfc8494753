// The compute tools: one list of definitions shared by VS Code's language-model tools and the MCP
// server. run.ts is the one way to run or confirm one; it holds zod, so it is not imported here (the
// editor registers the tools at activation). Extension point: a `compute_spend` read tool joins TOOLS
// once billing lands in the compute catalog.

import type { ToolDefinition } from './api';
import { explainFailure } from './diagnoseTool';
import { getTask, listStorage, listTasks, nodeLog, searchGpus } from './readTools';
import { applySpec, planSpec, validateSpec } from './specTools';
import { changeNodeCount, createTask, pauseTask, recoverTask, stopTask } from './writeTools';
import { getJob, jobLogs, runJob, stopJob } from './jobTools';
import { nasListDirectory, nasListVolumes, nasReadFile, nasUploadFile } from './nasTools';
import { listMachines, machineConnection, rentMachine, searchMachines } from './machineTools';

export type { JsonSchema, ToolConfirmation, ToolInput, ToolInputs, ToolContext, ToolDefinition, ToolEffect, ToolProfile, ToolResult } from './api';
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
