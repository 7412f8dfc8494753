// The tools that spend money or change state: create a task, change its node count, pause, recover,
// stop. Each confirms first (confirm), naming the profile, the task and the cost or loss, read fresh
// from the platform; run() does the one change and says what happened.

import type { TaskCreateBody, TaskDetail } from '../compute/api';
import { formatYuan } from '../spend/units';
import { ConfigError } from '../errors';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './api';
import type * as writeInputs from './inputs/writeInputs';
import { confirmation } from './confirmation';
import { strongestEffect } from './effects';
import { field } from './format';
import { sentValueLines } from './shownWhole';
import { costLine, findOffer, taskResourceOffer } from './pricing';
import { trimBoth } from '../textTrim';
import { resourcesOf, tasksOf } from './services';


function readDetail(context: ToolContext, taskId: number): Promise<TaskDetail> {
  return tasksOf(context).detail(taskId, context.signal);
}

function taskPhrase(detail: TaskDetail): string {
  return `task "${field(detail.task_name, 80)}" (${detail.task_id}), now ${field(detail.status, 20)} with ${detail.points} node(s)`;
}

/** A container name from the image ("…/dailyhot:1.0" → "dailyhot"), DNS-label safe. */
function serviceNameFor(image: string): string {
  const repository = (image.trim().split('/').pop() ?? '').split(/[:@]/)[0] ?? '';
  const name = trimBoth(repository.toLowerCase().replace(/[^a-z0-9-]+/g, '-'), '-').slice(0, 63);
  return name.length > 0 ? name : 'container-01';
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What a task the model asked for sends besides its resource: shown whole in the confirmation, and
 * the env as the platform's one string of NAME=value lines — so a name or a value that would add a
 * line (another variable nobody saw) is refused (a deployment's env is one string: docs/sandbox-rules.md).
 */
function taskSent(input: Record<string, unknown>): { lines: string[]; envText: string | null; command: string | null } {
  const env = Object.entries((input['env'] as Record<string, string> | undefined) ?? {}).map(([name, value]) => ({ name, value }));
  for (const { name, value } of env) {
    if (!ENV_NAME.test(name)) throw new ConfigError(`The env variable name "${field(name, 64)}" is not a plain NAME (letters, digits, _).`);
    if (/[\r\n]/.test(value)) throw new ConfigError(`The value of env variable ${name} holds a line break, which the platform would read as another variable.`, 'Give each variable its own entry.');
  }
  const command = typeof input['start_command'] === 'string' && input['start_command'].trim() !== '' ? input['start_command'].trim() : null;
  const lines = sentValueLines({ image: String(input['image']).trim(), ...(command === null ? {} : { command }), env }, "The task's command and env variables are", 'Pass fewer or shorter env variables; put a long command in a script in the image.');
  return { lines, envText: env.length > 0 ? env.map(({ name, value }) => `${name}=${value}`).join('\n') : null, command };
}

export const createTask: ToolDefinition<z.output<typeof writeInputs.createTask>> = {
  name: 'compute_create_task',
  toolReferenceName: 'computeCreateTask',
  displayName: 'Create Compute Task',
  userDescription: 'Start a GPU deployment task (spends money while it runs).',
  modelDescription:
    'Create a deployment task: run a container image on rented GPU nodes. This SPENDS MONEY every second the nodes run; the ' +
    'user confirms the price first. Take device_name and region exactly from compute_search_gpus. Returns the new task id; ' +
    'then watch it with compute_get_task until it is Running.',
  input: (inputs) => inputs.write.createTask,
  operations: ['resource.search', 'task.create'],
  effect: strongestEffect(['resource.search', 'task.create']),
  idempotent: false,
  invocationMessage: (input) => `Creating task "${field(input['task_name'], 64)}"…`,
  async confirm(input, context) {
    const nodes = typeof input['nodes'] === 'number' ? input['nodes'] : 1;
    const offer = await findOffer(resourcesOf(context), String(input['device_name']), String(input['region']), context.signal);
    const stock = offer.region.inventory > 0 ? `${offer.region.inventory} in stock` : 'sold out: the task may stay Pending';
    return confirmation('write', context.profile, `Create task "${field(input['task_name'], 64)}"?`, [
      `Cost: ${costLine(nodes, offer.device, offer.region.region_name, offer.yuanPerHour)}, billed per second while nodes run (${stock}).`,
      `Ports ${(input['ports'] as number[]).join(', ')}.`,
      ...taskSent(input).lines,
      'Stop it with pause (keeps the task) or stop (deletes it) when done.',
    ]);
  },
  async run(input, context) {
    const nodes = typeof input['nodes'] === 'number' ? input['nodes'] : 1;
    const { envText, command } = taskSent(input);
    const offer = await findOffer(resourcesOf(context), String(input['device_name']), String(input['region']), context.signal);
    const image = String(input['image']).trim();
    if (/\s/.test(image)) throw new ConfigError('The image reference contains spaces.', 'Use registry/repository:tag.');
    const body: TaskCreateBody = {
      task_type: 'Deployment',
      task_name: String(input['task_name']).trim(),
      points: nodes,
      resources: [{ mark: offer.region.mark.mark, resource: offer.region.mark.resource, region_name: offer.region.region_name }],
      services: [
        {
          service_name: serviceNameFor(image),
          service_image: image,
          remote_ports: (input['ports'] as number[]).map((service_port) => ({ service_port })),
          env: envText,
          start_script_v2: { command, args: [] },
        },
      ],
    };
    const taskId = await tasksOf(context).create(body, context.signal ? { signal: context.signal } : {});
    return `Created task ${taskId} "${field(body.task_name)}": ${costLine(nodes, offer.device, offer.region.region_name, offer.yuanPerHour)}. ` +
      'It starts Pending; check it with compute_get_task until it is Running (poll at most every 10 s).';
  },
};

export const changeNodeCount: ToolDefinition<z.output<typeof writeInputs.changeNodeCount>> = {
  name: 'compute_change_node_count',
  toolReferenceName: 'computeScaleTask',
  displayName: 'Change Node Count',
  userDescription: 'Scale a task to a new number of nodes (changes the hourly cost).',
  modelDescription:
    'Set the total number of nodes of a deployment task (scale up or down). More nodes cost more per hour; the user confirms the ' +
    'new hourly cost first. nodes is the new total, not a difference.',
  input: (inputs) => inputs.write.changeNodeCount,
  operations: ['task.detail', 'task.changePoints'],
  effect: strongestEffect(['task.detail', 'task.changePoints']),
  idempotent: true,
  invocationMessage: (input) => `Setting task ${String(input['task_id'])} to ${String(input['nodes'])} node(s)…`,
  async confirm(input, context) {
    const nodes = input['nodes'] as number;
    const detail = await readDetail(context, input['task_id'] as number);
    const resource = detail.resources?.[0];
    const offer = await taskResourceOffer(resourcesOf(context), resource, context.signal);
    const region = resource?.region_name ?? 'its region';
    const cost = offer
      ? `Cost: ${costLine(nodes, offer.device, region, offer.yuanPerHour)}, was ${offer.yuanPerHour === undefined ? 'unlisted' : `${formatYuan(offer.yuanPerHour * detail.points)}/h`} with ${detail.points} node(s).`
      : 'Cost: the current price of this resource is not listed; each node is billed per second.';
    const loss = nodes < detail.points ? [`Removes ${detail.points - nodes} node(s): whatever they hold locally is lost.`] : [];
    return confirmation('write', context.profile, `Change task "${field(detail.task_name, 64)}" (${detail.task_id}) to ${nodes} node(s)?`, [
      `Task: ${taskPhrase(detail)}.`,
      cost,
      ...loss,
    ]);
  },
  async run(input, context) {
    const taskId = input['task_id'] as number;
    const nodes = input['nodes'] as number;
    await tasksOf(context).changePoints(taskId, nodes, context.signal);
    return `Task ${taskId} now asks for ${nodes} node(s); compute_get_task shows when they run.`;
  },
};

function lifecycleTool(kind: 'pause' | 'recover' | 'stop'): ToolDefinition<z.output<typeof writeInputs.taskLifecycle>> {
  const spec = {
    pause: {
      name: 'compute_pause_task',
      ref: 'computePauseTask',
      display: 'Pause Compute Task',
      user: 'Pause a running task: billing stops, the task is kept.',
      model: 'Pause a Running deployment task: its nodes are released and billing stops; the task and its configuration are kept and compute_recover_task starts it again (if GPUs are in stock then). Prefer this over stop when the user only wants to stop paying for now.',
      action: 'Pause',
      operation: 'task.pause' as const,
      consequence: 'Its nodes are released and billing stops; the containers stop and lose what they hold locally. Recover later needs free inventory.',
      done: 'paused: billing stops once its nodes are released',
    },
    recover: {
      name: 'compute_recover_task',
      ref: 'computeRecoverTask',
      display: 'Recover Compute Task',
      user: 'Start a paused task again (billing resumes).',
      model: 'Recover (restart) a Paused deployment task. Billing resumes at the current price once nodes run. Only for tasks in state Paused.',
      action: 'Recover',
      operation: 'task.recover' as const,
      consequence: 'Billing resumes per node at the current price once its nodes run.',
      done: 'recovering: billing resumes once its nodes run',
    },
    stop: {
      name: 'compute_stop_task',
      ref: 'computeStopTask',
      display: 'Stop (Delete) Compute Task',
      user: 'Stop and DELETE a task for good.',
      model: 'Stop a deployment task. On this platform stop DELETES the task: it ends for good, its nodes and containers are released, and it cannot be recovered. Use only when the user clearly wants the task gone; to stop paying but keep it, use compute_pause_task.',
      action: 'Stop (delete)',
      operation: 'task.stop' as const,
      consequence: 'Stop deletes the task: its nodes, containers and their local data are gone, and it cannot be recovered or undone.',
      done: 'stopped and deleted (status End)',
    },
  }[kind];
  const effect = strongestEffect(['task.detail', spec.operation]);
  return {
    name: spec.name,
    toolReferenceName: spec.ref,
    displayName: spec.display,
    userDescription: spec.user,
    modelDescription: spec.model,
    input: (inputs) => inputs.write.taskLifecycle,
    operations: ['task.detail', spec.operation],
    effect,
    idempotent: true,
    invocationMessage: (input) => `${spec.action} task ${String(input['task_id'])}…`,
    async confirm(input, context) {
      const detail = await readDetail(context, input['task_id'] as number);
      const resource = detail.resources?.[0];
      const lines = [`Task: ${taskPhrase(detail)}.`, spec.consequence];
      if (kind !== 'stop' && resource) {
        const offer = await taskResourceOffer(resourcesOf(context), resource, context.signal);
        if (offer) lines.push(`Rate: ${costLine(detail.points, offer.device, resource.region_name, offer.yuanPerHour)}.`);
      }
      return confirmation(effect, context.profile, `${spec.action} task "${field(detail.task_name, 64)}" (${detail.task_id})?`, lines);
    },
    async run(input, context) {
      const taskId = input['task_id'] as number;
      await tasksOf(context).lifecycle(kind, taskId, context.signal);
      return `Task ${taskId} ${spec.done}.`;
    },
  };
}

export const pauseTask = lifecycleTool('pause');
export const recoverTask = lifecycleTool('recover');
export const stopTask = lifecycleTool('stop');
