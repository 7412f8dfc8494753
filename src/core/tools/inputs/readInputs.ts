// The read tools' inputs (../readTools.ts, ../diagnoseTool.ts): one zod schema each (docs/shapes.md).

import { z } from 'zod';
import { idField } from './fields';

export const TASK_STATUSES = ['Pending', 'Running', 'Paused', 'End'] as const;

export const taskIdField = (): z.ZodInt => idField('The task id (from compute_list_tasks).', 1229831);

export const searchGpus = z.strictObject({
  gpu_model: z.string().max(64).optional().meta({ description: 'Part of the GPU model name, case-insensitive.', examples: ['4090', 'H20', 'A100'] }),
  min_vram_gb: z.number().min(0).max(4096).optional().meta({ description: 'Minimum GPU memory per card, in GB.', examples: [24, 80] }),
  max_yuan_per_hour: z.number().min(0).optional().meta({ description: 'Maximum price per node, in yuan per hour (¥/h).', examples: [2, 10] }),
  region: z.string().max(64).optional().meta({ description: 'Part of the region name or tag.', examples: ['北京', 'hebei'] }),
  in_stock_only: z.boolean().default(true).meta({ description: 'Only offers with inventory > 0 (default true).' }),
  gpu_count: z.int().min(1).max(64).optional().meta({ description: 'Exact number of GPUs per node.', examples: [1, 8] }),
});

export const listTasks = z.strictObject({
  status: z.array(z.enum(TASK_STATUSES)).max(4).optional().meta({ description: 'Only tasks in these states.', examples: [['Running', 'Pending']] }),
  search: z.string().max(128).optional().meta({ description: 'Part of the task name.', examples: ['llama'] }),
  page: z.int().min(1).default(1).meta({ description: 'Page number, from 1.' }),
  page_size: z.int().min(1).max(100).default(20).meta({ description: 'Tasks per page (1–100, default 20).' }),
});

export const getTask = z.strictObject({ task_id: taskIdField() });

export const nodeLog = z.strictObject({
  task_id: taskIdField(),
  point_id: z.int().min(1).optional().meta({ description: 'Node id (compute_get_task lists them); default: the first node.' }),
  service_id: z.int().min(1).optional().meta({ description: 'Service (container) id; default: the task\'s first service.' }),
  lines: z.int().min(1).max(1000).default(100).meta({ description: 'How many of the last lines to return (default 100).' }),
});

export const listStorage = z.strictObject({
  status: z.array(z.enum(['Activate', 'Unactivated'])).max(2).optional().meta({ description: 'Only volumes in these states.' }),
});

export const explainFailure = z.strictObject({
  code: z.string().max(16).optional().meta({ description: 'The error code the failing call returned, if known.', examples: ['C001'] }),
});
