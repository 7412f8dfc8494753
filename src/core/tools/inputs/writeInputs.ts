// The task write tools' inputs (../writeTools.ts): one zod schema each (docs/shapes.md).

import { z } from 'zod';
import { envField, nonEmptyText } from './fields';
import { taskIdField } from './readInputs';

const MAX_NODES = 100;

export const createTask = z.strictObject({
  task_name: nonEmptyText(64).meta({ description: 'A name for the task.', examples: ['llama-serve'] }),
  device_name: nonEmptyText(128).meta({ description: 'The device_name from compute_search_gpus.', examples: ['RTX 4090 x 2'] }),
  region: nonEmptyText(64).meta({ description: 'Region tag or name from compute_search_gpus.', examples: ['beijing-jxq-p1', '北京一区'] }),
  image: nonEmptyText(512).meta({ description: 'Container image reference.', examples: ['harbor.suanleme.cn/public-hub/dailyhot:1.0'] }),
  ports: z.array(z.int().min(1).max(65535)).min(1).max(10).meta({ description: 'Container ports to expose publicly.', examples: [[8080]] }),
  nodes: z.int().min(1).max(MAX_NODES).default(1).meta({ description: 'Number of nodes (each billed at the listed price).' }),
  env: envField('Environment variables, name → value.', [{ MODEL: 'qwen3' }]).optional(),
  start_command: z.string().max(4096).optional().meta({ description: 'Command line to run instead of the image\'s entrypoint.', examples: ['python serve.py --port 8080'] }),
});

export const changeNodeCount = z.strictObject({
  task_id: taskIdField(),
  nodes: z.int().min(1).max(MAX_NODES).meta({ description: 'The new total node count.', examples: [2] }),
});

/** Pause, recover and stop take the task id only. */
export const taskLifecycle = z.strictObject({ task_id: taskIdField() });
