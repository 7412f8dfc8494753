// Spec-file tools: validate, plan and apply a task or job spec file (*.task.json / *.task.yaml,
// *.job.json / *.job.yaml). The file is read through the host (the editor reads workspace files, the
// MCP server files under its working folder); secrets stay references the host resolves. Apply
// confirms with the plan first. A job cannot be updated on the platform: apply creates a new job
// from a file without a job id and refuses one that already names a job. The specs core (ajv, yaml)
// loads when a tool first runs (specsCore(), core/specs/load.ts), not when the tool list is built.

import { specsCore } from '../specs/load';
import type { SpecContext } from '../specs/runner';
import { specFormatOf, type Spec, type SpecDiagnostic } from '../specs/types';
import { ConfigError } from '../errors';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './api';
import type * as specInputs from './inputs/specInputs';
import { confirmation } from './confirmation';
import { strongestEffect } from './effects';
import { shownWhole } from './shownWhole';
import { specServicesOf, volumesOf } from './services';

export type { SpecFileAccess } from './ports';


async function readSpec(input: Record<string, unknown>, context: ToolContext): Promise<{ path: string; spec?: Spec; problems: string[] }> {
  const files = context.specFiles;
  if (!files) throw new ConfigError('This host cannot read spec files.', 'Open the file in the editor and use its Validate / Plan CodeLens.');
  const path = String(input['path']);
  const format = specFormatOf(path);
  if (!format) throw new ConfigError(`${path} is not a spec file.`, 'Spec files end in .task.json, .task.yaml, .job.json or .job.yaml.');
  const text = await files.read(path);
  const problemLine = (diagnostic: SpecDiagnostic) => `line ${diagnostic.start.line + 1}: ${diagnostic.severity}: ${diagnostic.message}`;
  // Off the host's thread first where the host can: only a valid file (within the shape limits) is parsed here.
  const checked = await files.checkOffThread?.(text, format);
  if (checked && !checked.valid) return { path, problems: checked.diagnostics.map(problemLine) };
  const validation = specsCore().validateSpecText(text, format);
  const problems = validation.diagnostics.map(problemLine);
  if (!validation.spec) return { path, problems };
  const target = validation.spec.profile;
  if (target !== undefined && specsCore().matchProfileRef(target, { id: context.profile.id ?? context.profile.label, label: context.profile.label }, context.profile.knownLabels).kind === 'other') {
    throw new ConfigError(`${path} targets profile "${validation.spec.profile}", but the active profile is "${context.profile.label}".`, 'Switch profiles first.');
  }
  return { path, spec: validation.spec, problems };
}

/** What the file decides, for the confirmation; refuses a file whose list would not be shown whole. */
function factLines(path: string, spec: Spec): string[] {
  const facts = shownWhole(specsCore().describeSpecFacts(spec), `${path} decides (services, commands, env variables, mounts)`, 'Deploy it from the editor (the Deploy CodeLens), whose review lists everything.');
  return [`What ${path} runs and sends:`, ...facts];
}

/** Restricted Mode: files of an untrusted folder are read and planned, never applied (docs/security.md). */
function untrusted(path: string): ConfigError {
  return new ConfigError(
    `${path} is in a folder that is not trusted (Restricted Mode): its files would decide what runs and what is sent, so they are not applied. Nothing was sent.`,
    'Ask the user to trust the folder (command "Workspaces: Manage Workspace Trust"), then apply again.',
  );
}

function specContext(context: ToolContext): SpecContext {
  return { services: specServicesOf(context), resolveSecret: (ref) => context.specFiles!.resolveSecret(ref), nasVolumes: specsCore().nasVolumesOf(volumesOf(context), context.signal), ...(context.signal ? { signal: context.signal } : {}) };
}

export const validateSpec: ToolDefinition<z.output<typeof specInputs.specFile>> = {
  name: 'compute_validate_spec',
  toolReferenceName: 'computeValidateSpec',
  displayName: 'Validate Compute Spec File',
  userDescription: 'Check a task or job spec file: schema, units, and on the platform the resource, its stock and NAS volumes.',
  modelDescription:
    'Validate a task or job spec file (*.task.json/*.task.yaml/*.job.json/*.job.yaml): schema problems with line numbers, then (when valid) the resource, its stock and the NAS volumes ' +
    '(exist, Active, in the region) on the platform. Changes nothing.',
  input: (inputs) => inputs.specs.specFile,
  operations: ['resource.search', 'task.detail', 'nas.list'],
  effect: strongestEffect(['resource.search', 'task.detail', 'nas.list']),
  idempotent: true,
  invocationMessage: () => 'Validating the spec file…',
  async run(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return [`${path}: not valid.`, ...problems].join('\n');
    const checks = await specsCore().checkSpec(spec, specContext(context));
    return [`${path}: the file is valid.`, ...problems, ...checks.map((check) => `${check.severity}: ${check.path.join('.')}: ${check.message}`)].join('\n');
  },
};

export const planSpec: ToolDefinition<z.output<typeof specInputs.specFile>> = {
  name: 'compute_plan_spec',
  toolReferenceName: 'computePlanSpec',
  displayName: 'Plan Compute Spec File',
  userDescription: 'Show what applying a task or job spec file would create, change, reset and cost.',
  modelDescription:
    'Plan a task or job spec file. Task: without a taskId it would create the task; with one, it lists each field the update changes and each field it would RESET ' +
    '(task update overwrites the whole task), and the cost per hour before and after. Job: what would be created (resource, completions, parallelism, timeout, Spot), ' +
    'the cost per hour for the pods at once and the most it can cost (the timeout); jobs cannot be updated, so a file with a taskId says so. Changes nothing.',
  input: (inputs) => inputs.specs.specFile,
  operations: ['resource.search', 'task.detail', 'job.detail'],
  effect: strongestEffect(['resource.search', 'task.detail', 'job.detail']),
  idempotent: true,
  invocationMessage: () => 'Planning the spec file…',
  async run(input, context) {
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return [`${path}: not valid; fix these first.`, ...problems].join('\n');
    const facts = [`What ${path} runs and sends:`, ...specsCore().describeSpecFacts(spec)];
    const trust = context.specFiles?.trusted === false ? ['This folder is not trusted (Restricted Mode): the file can be planned, not applied.'] : [];
    if (spec.kind === 'job') return [...specsCore().describeJobPlan(await specsCore().planJobSpec(spec, specContext(context))), ...facts, ...trust].join('\n');
    return [...specsCore().describePlan(await specsCore().planTaskSpec(spec, specContext(context))), ...facts, ...trust].join('\n');
  },
};

export const applySpec: ToolDefinition<z.output<typeof specInputs.specFile>> = {
  name: 'compute_apply_spec',
  toolReferenceName: 'computeApplySpec',
  displayName: 'Apply Compute Spec File',
  userDescription: 'Create or update a task, or create a job, from a spec file (spends money; the plan is confirmed first).',
  modelDescription:
    'Apply a spec file. Task: create the task (no taskId yet) or overwrite the live task with the file. Job: create the job (no taskId yet; a job cannot be updated, ' +
    'a file with a taskId is refused). SPENDS MONEY; the user confirms the plan (changes, resets, cost) first. Run compute_plan_spec before and show the user the plan.',
  input: (inputs) => inputs.specs.specFile,
  operations: ['resource.search', 'task.detail', 'task.create', 'task.update', 'job.detail', 'job.create'],
  effect: strongestEffect(['resource.search', 'task.detail', 'task.create', 'task.update', 'job.detail', 'job.create']),
  idempotent: false,
  invocationMessage: () => 'Applying the spec file…',
  async confirm(input, context) {
    if (context.specFiles?.trusted === false) {
      const path = String(input['path']);
      return confirmation('write', context.profile, `Apply ${path}? (refused in Restricted Mode)`, [untrusted(path).message]);
    }
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) return confirmation('write', context.profile, `Apply ${path}?`, ['The file is not valid; applying will fail:', ...problems.slice(0, 10)]);
    // What the file decides comes right after the headline: a long change list is cut, never these lines.
    const facts = factLines(path, spec);
    if (spec.kind === 'job') {
      const jobPlan = await specsCore().planJobSpec(spec, specContext(context));
      const [headline = '', ...rest] = specsCore().describeJobPlan(jobPlan);
      return confirmation('write', context.profile, jobPlan.action === 'create' ? `Create job "${jobPlan.jobName}" from ${path}?` : `${path} already created job ${jobPlan.taskId}: nothing to apply.`, [headline, ...facts, ...rest]);
    }
    const plan = await specsCore().planTaskSpec(spec, specContext(context));
    const [headline = '', ...rest] = specsCore().describePlan(plan);
    return confirmation('write', context.profile, plan.action === 'create' ? `Create task "${plan.taskName}" from ${path}?` : `Update task ${plan.taskId} from ${path}?`, [headline, ...facts, ...rest]);
  },
  async run(input, context) {
    if (context.specFiles?.trusted === false) throw untrusted(String(input['path']));
    const { path, spec, problems } = await readSpec(input, context);
    if (!spec) throw new ConfigError(`${path} is not valid.`, problems.slice(0, 10).join('\n'));
    // Refused here too: the confirmation could not have shown it whole.
    factLines(path, spec);
    if (spec.kind === 'job') {
      const jobPlan = await specsCore().planJobSpec(spec, specContext(context));
      if (jobPlan.action !== 'create') throw new ConfigError(`${path} already created job ${jobPlan.taskId}; jobs cannot be updated on the platform.`, 'Remove "taskId" from the file to create a new job.');
      const { taskId } = await specsCore().applyJobPlan(jobPlan, specContext(context));
      await context.specFiles?.rememberTaskId?.(path, taskId);
      return `Created job ${taskId} from ${path}${context.specFiles?.rememberTaskId ? ' (the file now remembers its id)' : ''}.`;
    }
    const plan = await specsCore().planTaskSpec(spec, specContext(context));
    if (plan.action === 'update' && plan.changes.length === 0) return specsCore().describePlan(plan).join('\n');
    const { taskId, created } = await specsCore().applyTaskPlan(plan, specContext(context));
    if (created) await context.specFiles?.rememberTaskId?.(path, taskId);
    return created ? `Created task ${taskId} from ${path}${context.specFiles?.rememberTaskId ? ' (the file now remembers its id)' : ''}.` : `Updated task ${taskId} from ${path}: ${plan.changes.length} change(s).`;
  },
};
