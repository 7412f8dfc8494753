// The read tools: search GPU offers, list and inspect tasks, tail a node's log, list storage. None of
// them changes anything on the platform, so none needs a confirmation beyond the editor's own.

import type { TaskDetail, TaskNode, TaskStatus } from '../compute/api';
import { TASK_FILTER_STATUSES } from '../tasks/listing';
import { formatYuan, yuanFromPoints } from '../spend/units';
import { ConfigError } from '../errors';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './api';
import type * as readInputs from './inputs/readInputs';
import { capLines, field, gigabytes, RESULT_LIMIT_CHARS, tailLines } from './format';
import { strongestEffect } from './effects';
import { plainTerminalText } from '../terminalText';
import { offersOf } from './pricing';
import { deviceLabel } from '../deviceLabel';
import { resourcesOf, storageOf, tasksOf } from './services';

const limitOf = (context: ToolContext): number => context.resultLimitChars ?? RESULT_LIMIT_CHARS;

/** The platform's `gpu_memory` is the device total in MiB (786432 for 8 × H20); filters and lines are per card. */
function vramPerCardMiB(device: { gpu_memory: number; gpu_count: number }): number {
  return device.gpu_count > 0 ? device.gpu_memory / device.gpu_count : 0;
}

export const searchGpus: ToolDefinition<z.output<typeof readInputs.searchGpus>> = {
  name: 'compute_search_gpus',
  toolReferenceName: 'computeGpus',
  displayName: 'Search GPU Resources',
  userDescription: 'Find GPU offers by model, VRAM, price, region and stock.',
  modelDescription:
    'Search the GPU compute platform for rentable GPU offers (device × region) with price and inventory. Use it before ' +
    'creating a task, or when the user asks what GPUs are available or what they cost. Prices are per node in yuan per hour ' +
    '(¥/h). Returns one line per offer, cheapest first, with the device_name and region that compute_create_task takes.',
  input: (inputs) => inputs.read.searchGpus,
  operations: ['resource.search'],
  effect: strongestEffect(['resource.search']),
  idempotent: true,
  invocationMessage: () => 'Searching GPU resources…',
  async run(input, context) {
    const devices = await resourcesOf(context).gpuDeployments(context.signal);
    const model = input.gpu_model?.trim().toLowerCase() ?? '';
    const region = input.region?.trim().toLowerCase() ?? '';
    const minVram = input.min_vram_gb ?? 0;
    const maxPrice = input.max_yuan_per_hour ?? Infinity;
    const inStockOnly = input.in_stock_only;
    const count = input.gpu_count;
    const offers = offersOf(devices.results).filter(({ device, region: r, yuanPerHour }) => {
      if (model && !`${device.gpu_name ?? ''} ${device.device_name}`.toLowerCase().includes(model)) return false;
      if (region && !`${r.region_name} ${r.region}`.toLowerCase().includes(region)) return false;
      if (vramPerCardMiB(device) / 1024 < minVram - 0.5) return false;
      if (count !== undefined && device.gpu_count !== count) return false;
      if (inStockOnly && r.inventory <= 0) return false;
      if (yuanPerHour === undefined) return !inStockOnly && maxPrice === Infinity;
      return yuanPerHour <= maxPrice;
    });
    offers.sort((a, b) => (a.yuanPerHour ?? Infinity) - (b.yuanPerHour ?? Infinity));
    if (offers.length === 0) return 'No GPU offer matches these filters. Relax a filter (price, VRAM, region) or set in_stock_only to false to see sold-out offers.';
    const lines = [
      `${offers.length} offer(s), cheapest first (price per node):`,
      ...offers.map(({ device, region: r, yuanPerHour }) =>
        `- ${deviceLabel(device)} · ${gigabytes(vramPerCardMiB(device))} VRAM per card · ${device.cpu_cores} CPU · ${gigabytes(device.memory)} RAM · ` +
          `${field(r.region_name)} (region "${field(r.region)}") · ${yuanPerHour === undefined ? 'price n/a' : `${formatYuan(yuanPerHour)}/h`} · ` +
          `${r.inventory > 0 ? `${r.inventory} in stock` : 'sold out'} · device_name "${field(device.device_name)}"`,
      ),
    ];
    return capLines(lines, limitOf(context), 'add filters (gpu_model, region, max_yuan_per_hour) to narrow the list');
  },
};

export const listTasks: ToolDefinition<z.output<typeof readInputs.listTasks>> = {
  name: 'compute_list_tasks',
  toolReferenceName: 'computeTasks',
  displayName: 'List Compute Tasks',
  userDescription: 'List your deployment tasks with status, nodes and spend.',
  modelDescription:
    'List the user\'s deployment tasks on the GPU platform: id, name, status (Pending, Running, Paused, End), running/total nodes, ' +
    'GPU and region, and amount billed. Use it to find a task id, or to see what is running (and costing money).',
  input: (inputs) => inputs.read.listTasks,
  operations: ['task.list'],
  effect: strongestEffect(['task.list']),
  idempotent: true,
  invocationMessage: () => 'Listing compute tasks…',
  async run(input, context) {
    const { page, page_size: pageSize } = input;
    const statuses: readonly TaskStatus[] = input.status && input.status.length > 0 ? input.status : TASK_FILTER_STATUSES;
    const search = input.search?.trim() || undefined;
    const tasks = await tasksOf(context).page({ statuses, ...(search ? { searchValue: search } : {}) }, page, pageSize, context.signal);
    if (tasks.results.length === 0) return page > 1 ? `No tasks on page ${page} (${tasks.count} in total).` : 'No tasks match.';
    const first = (page - 1) * pageSize + 1;
    const lines = [
      `Tasks ${first}–${first + tasks.results.length - 1} of ${tasks.count}${tasks.count > first + tasks.results.length - 1 ? ` (next: page ${page + 1})` : ''}:`,
      ...tasks.results.map((task) => {
        const resource = task.resources?.[0];
        const where = resource ? ` · ${deviceLabel(resource.resource)} in ${field(resource.region_name)}` : '';
        return `- ${task.task_id} "${field(task.task_name)}" · ${field(task.status)} · ${task.runing_points}/${task.points} node(s)${where} · billed ${formatYuan(yuanFromPoints(task.billing_value))}`;
      }),
    ];
    return capLines(lines, limitOf(context), 'use a smaller page_size, a status filter or search');
  },
};

function nodeLine(node: TaskNode): string {
  return `  - node ${node.point_id} "${field(node.name)}" · ${field(node.status)} · ${field(node.region_name)} · billed ${formatYuan(yuanFromPoints(node.billing_value ?? 0))}`;
}

function detailLines(detail: TaskDetail, nodes: readonly TaskNode[], nodeCount: number): string[] {
  const resource = detail.resources?.[0];
  const lines = [
    `Task ${detail.task_id} "${field(detail.task_name)}" · ${field(detail.status)} · ${detail.runing_points}/${detail.points} node(s) running`,
    ...(resource ? [`Resource: ${deviceLabel(resource.resource)} in ${field(resource.region_name)}`] : []),
    `Billed so far: ${formatYuan(yuanFromPoints(detail.billing_value))}; created ${field(detail.create_time)}`,
    'Services:',
  ];
  for (const service of detail.services ?? []) {
    const urls = (service.remote_ports ?? []).map((port) => `${port.service_port} → ${port.url ? field(port.url) : 'no public URL yet'}`);
    lines.push(`  - service ${service.service_id} "${field(service.service_name)}" · image ${field(service.service_image)} · ports ${urls.join(', ') || 'none'}`);
  }
  lines.push(`Nodes (${nodeCount}):`, ...(nodes.length > 0 ? nodes.map(nodeLine) : ['  (none yet)']));
  return lines;
}

export const getTask: ToolDefinition<z.output<typeof readInputs.getTask>> = {
  name: 'compute_get_task',
  toolReferenceName: 'computeTask',
  displayName: 'Get Compute Task',
  userDescription: 'Show one task: status, services with public URLs, nodes.',
  modelDescription:
    'Get one deployment task by id: status, GPU and region, billed amount, its services with their public URLs, and its nodes ' +
    '(node ids for compute_node_log). Use it to find a service URL or to check whether a task is up.',
  input: (inputs) => inputs.read.getTask,
  operations: ['task.detail', 'node.list'],
  effect: strongestEffect(['task.detail', 'node.list']),
  idempotent: true,
  invocationMessage: (input) => `Reading task ${String(input['task_id'])}…`,
  async run(input, context) {
    const taskId = input.task_id;
    const detail = await tasksOf(context).detail(taskId, context.signal);
    const nodes = await tasksOf(context).nodePage(taskId, { page: 1, pageSize: 50 }, context.signal);
    return capLines(detailLines(detail, nodes.results, nodes.count), limitOf(context), 'the node list is cut; the task has more nodes than fit');
  },
};

export const nodeLog: ToolDefinition<z.output<typeof readInputs.nodeLog>> = {
  name: 'compute_node_log',
  toolReferenceName: 'computeNodeLog',
  displayName: 'Tail Node Log',
  userDescription: 'The last lines of a task node\'s container log.',
  modelDescription:
    'Read the last lines of a task node\'s container log, to see why a service fails or what it printed. Give task_id; ' +
    'point_id (node) and service_id default to the task\'s first node and first service (ids from compute_get_task).',
  input: (inputs) => inputs.read.nodeLog,
  operations: ['node.list', 'task.detail', 'node.log'],
  effect: strongestEffect(['node.list', 'task.detail', 'node.log']),
  idempotent: true,
  invocationMessage: (input) => `Reading the node log of task ${String(input['task_id'])}…`,
  async run(input, context) {
    const taskId = input.task_id;
    let pointId = input.point_id;
    let serviceId = input.service_id;
    if (pointId === undefined) {
      const nodes = await tasksOf(context).nodes(taskId, { page: 1, pageSize: 1 }, context.signal);
      pointId = nodes[0]?.point_id;
      if (pointId === undefined) throw new ConfigError(`Task ${taskId} has no nodes yet, so there is no log.`, 'Wait until it is Running (compute_get_task), then try again.');
    }
    if (serviceId === undefined) {
      const detail = await tasksOf(context).detail(taskId, context.signal);
      serviceId = detail.services?.[0]?.service_id;
      if (serviceId === undefined) throw new ConfigError(`Task ${taskId} lists no service.`);
    }
    const { logs } = await tasksOf(context).nodeLog({ taskId, pointId, serviceId }, context.signal);
    const wanted = input.lines;
    const tail = tailLines(plainTerminalText(logs ?? ''), wanted, limitOf(context) - 300);
    if (tail.total === 0) return `Node ${pointId}, service ${serviceId} of task ${taskId} has written no log lines yet.`;
    const header = `Log of node ${pointId}, service ${serviceId} (task ${taskId}): last ${tail.shown} of ${tail.total} line(s)` +
      (tail.shown < Math.min(wanted, tail.total) ? ' [cut to fit the context window; ask for fewer lines]' : '') + ':';
    return `${header}\n${tail.text}`;
  },
};

export const listStorage: ToolDefinition<z.output<typeof readInputs.listStorage>> = {
  name: 'compute_list_storage',
  toolReferenceName: 'computeStorage',
  displayName: 'List Storage',
  userDescription: 'List object storage volumes and their status.',
  modelDescription: 'List the user\'s object storage (JuiceFS) volumes: id, name, bucket, endpoint and status. Credentials are never shown.',
  input: (inputs) => inputs.read.listStorage,
  operations: ['storage.list'],
  effect: strongestEffect(['storage.list']),
  idempotent: true,
  invocationMessage: () => 'Listing storage…',
  async run(input, context) {
    const status = input.status && input.status.length > 0 ? input.status.join(',') : 'Activate,Unactivated';
    const storage = await storageOf(context).page({ storage_type: 'Juicefs', status, page: 1, page_size: 100 }, context.signal);
    if (storage.results.length === 0) return 'No storage volumes.';
    const lines = [
      `${storage.count} storage volume(s)${storage.count > storage.results.length ? ` (first ${storage.results.length} shown)` : ''}:`,
      ...storage.results.map((item) => `- ${item.storage_id} "${field(item.storage_name)}" · ${field(item.status)} · bucket ${field(item.bucket)} · dir ${field(item.dir)} · endpoint ${field(item.endpoint)}`),
    ];
    return capLines(lines, limitOf(context), 'filter by status');
  },
};
