// The batch job tools' inputs (../jobTools.ts): one zod schema each (docs/shapes.md).

import { z } from 'zod';
import { envField, idField, nonEmptyText } from './fields';

const jobIdField = (): z.ZodInt => idField('The job id (task_id returned by compute_run_job).', 1962285);

export const runJob = z.strictObject({
  job_name: nonEmptyText(64).meta({ description: 'A name for the job.', examples: ['train-resnet'] }),
  device_name: nonEmptyText(128).meta({ description: 'The device_name from compute_search_gpus.', examples: ['RTX 4090'] }),
  region: nonEmptyText(64).meta({ description: 'Region tag or name from compute_search_gpus.', examples: ['beijing-jxq-p1'] }),
  image: nonEmptyText(512).meta({ description: 'Container image reference.', examples: ['pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime'] }),
  command: nonEmptyText(4096).meta({ description: 'Shell command line to run (by /bin/sh -c).', examples: ['python train.py'] }),
  spot: z.boolean().default(true).meta({ description: 'Spot (cheaper, may queue; default) or on-demand (false).' }),
  estimated_sec: z.int().min(1).max(86400).optional().meta({ description: 'Spot: expected run time in seconds, below timeout_sec.' }),
  timeout_sec: z.int().min(1).max(604800).default(3600).meta({ description: 'Hard time limit in seconds: the job is killed after it.' }),
  completions: z.int().min(1).max(100).default(1).meta({ description: 'Successful pod runs required.' }),
  parallelism: z.int().min(1).max(20).default(1).meta({ description: 'Pods at once (each billed).' }),
  indexed: z.boolean().default(false).meta({ description: 'Give each pod an index (JOB_COMPLETION_INDEX).' }),
  retries: z.int().min(0).max(10).default(0).meta({ description: 'Failed pods retried before the job fails.' }),
  env: envField('Environment variables, name → value.').optional(),
  storage_id: z.int().min(1).optional().meta({ description: 'NAS volume to mount (Active, same region).' }),
  target_dir: z.string().min(2).max(256).optional().meta({ description: 'Where the volume is mounted; the command runs there.', examples: ['/mnt/nas'] }),
});

export const jobId = z.strictObject({ task_id: jobIdField() });

export const jobLogs = z.strictObject({
  task_id: jobIdField(),
  lines: z.int().min(1).max(500).default(60).meta({ description: 'How many of the last lines per pod (default 60).' }),
});
