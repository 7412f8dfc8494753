// Spec-file tools: validate, plan and apply a task spec file (*.task.json / *.task.yaml). The file is
// read through the host (the editor reads workspace files, the MCP server files under its working
// folder); secrets stay references the host resolves. Apply confirms with the plan first.

import { applyTaskPlan, checkSpec, describePlan, planTaskSpec, type SpecContext } from '../specs/runner';
import { specFormatOf, type SecretRef, type TaskSpec } from '../specs/types';
import { validateSpecText } from '../specs/validate';
import { ConfigError } from '../errors';
import type { ToolContext, ToolDefinition } from './api';
import { confirmation } from './confirmation';
import { strongestEffect } from './effects';

/** How a host gives the tools spec files; absent when it cannot (then the tools say so). */
export interface SpecFileAccess {
  /** The file's text; refuses paths outside the host's folders. */
  read(path: string): Promise<string>;
  resolveSecret(ref: SecretRef): Promise<string | undefined>;
  /** Writes the created task id into the file (Deploy's memory); optional. */
  rememberTaskId?(path: string, taskId: number): Promise<void>;
}

const pathSchema = { type: 'string', minLength: 1, maxLength: 1024, description: 'Path of the spec file (relative to the workspace), e.g. deploy/api.task.json.', examples: ['serve.task.json'] } as const;

async function readSpec(input: Record<string, unknown>, context: ToolContext): Promise<{ path: string; spec?: TaskSpec; problems: string[] }> {
  const files = context.specFiles;
  if (!files) throw new ConfigError('This host cannot read spec files.', 'Open the file in the editor and use its Validate / Plan CodeLens.');
  const path = String(input['path']);
  const format = specFormatOf(path);
  if (!format) throw new ConfigError(`${path} is not a spec file.`, 'Spec files end in .task.json, .task.yaml, .job.json or .job.yaml.');
  const validation = validateSpecText(await files.read(path), format);
  const problems = validation.diagnostics.map((diagnostic) => `line ${diagnostic.start.line + 1}: ${diagnostic.severity}: ${diagnostic.message}`);
  if (!validation.spec) return { path, problems };
  if (validation.spec.kind !== 'task') return { path, problems: [...problems, 'Job specs can be validated; plan and apply come with the batch job operations.'] };
  if (validation.spec.profile !== undefined && validation.spec.profile !== context.profile.label) {
    throw new ConfigError(`${path} targets profile "${validation.spec.profile}", but the active profile is "${context.profile.label}".`, 'Switch profiles first.');
  }
  return { path, spec: validation.spec, problems };
}

function specContext(context: ToolContext): SpecContext {
  return { client: context.client, resolveSecret: (ref) => context.specFiles!.resolveSecret(ref), ...(context.signal ? { signal: context.signal } : {}) };
}

export const validateSpec: ToolDefinition = {
  name: 'compute_validate_spec',
  toolReferenceName: 'computeValidateSpec',
  displayName: 'Validate Compute Spec File',
  userDescription: 'Check a task spec file: schema, units, and on the platform the resource and its stock.',
  modelDescription: 'Validate a task or job spec file (*.task.json/*.task.yaml): schema problems with line numbers, then (when valid) the resource, its stock and NAS volumes on the platform. Changes nothing.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: pathSchema } },
  operations: ['resource.search', 'task.detail'],
  effect: strongestEffect(['resource.search', 'task.detail']),
  idempotent: true,
  invocationMessage: () => 'Validating the spec file…',
  async run(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return [`${path}: not valid.`, ...problems].join('\n');
    const checks = await checkSpec(spec, specContext(context));
    return [`${path}: the file is valid.`, ...problems, ...checks.map((check) => `${check.severity}: ${check.path.join('.')}: ${check.message}`)].join('\n');
  },
};

export const planSpec: ToolDefinition = {
  name: 'compute_plan_spec',
  toolReferenceName: 'computePlanSpec',
  displayName: 'Plan Compute Spec File',
  userDescription: 'Show what applying a task spec file would change, reset and cost.',
  modelDescription:
    'Plan a task spec file: without a taskId it would create the task; with one, it lists each field the update changes and each field it would RESET ' +
    '(task update overwrites the whole task), and the cost per hour before and after. Changes nothing.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: pathSchema } },
  operations: ['resource.search', 'task.detail'],
  effect: strongestEffect(['resource.search', 'task.detail']),
  idempotent: true,
  invocationMessage: () => 'Planning the spec file…',
  async run(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return [`${path}: not valid; fix these first.`, ...problems].join('\n');
    return describePlan(await planTaskSpec(spec, specContext(context))).join('\n');
  },
};

export const applySpec: ToolDefinition = {
  name: 'compute_apply_spec',
  toolReferenceName: 'computeApplySpec',
  displayName: 'Apply Compute Spec File',
  userDescription: 'Create or update a task from a spec file (spends money; the plan is confirmed first).',
  modelDescription:
    'Apply a task spec file: create the task (no taskId yet) or overwrite the live task with the file. SPENDS MONEY; the user confirms the plan ' +
    '(changes, resets, cost) first. Run compute_plan_spec before and show the user the plan.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: pathSchema } },
  operations: ['resource.search', 'task.detail', 'task.create', 'task.update'],
  effect: strongestEffect(['resource.search', 'task.detail', 'task.create', 'task.update']),
  idempotent: false,
  invocationMessage: () => 'Applying the spec file…',
  async confirm(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return confirmation('write', context.profile, `Apply ${path}?`, ['The file is not valid; applying will fail:', ...problems.slice(0, 10)]);
    const plan = await planTaskSpec(spec, specContext(context));
    return confirmation('write', context.profile, plan.action === 'create' ? `Create task "${plan.taskName}" from ${path}?` : `Update task ${plan.taskId} from ${path}?`, describePlan(plan));
  },
  async run(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) throw new ConfigError(`${path} is not valid.`, problems.slice(0, 10).join('\n'));
    const plan = await planTaskSpec(spec, specContext(context));
    if (plan.action === 'update' && plan.changes.length === 0) return describePlan(plan).join('\n');
    const { taskId, created } = await applyTaskPlan(plan, specContext(context));
    if (created) await context.specFiles?.rememberTaskId?.(path, taskId);
    return created ? `Created task ${taskId} from ${path}${context.specFiles?.rememberTaskId ? ' (the file now remembers its id)' : ''}.` : `Updated task ${taskId} from ${path}: ${plan.changes.length} change(s).`;
  },
};
