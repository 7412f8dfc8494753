// Builds the job create body (docs/platform.md "Batch jobs") from what the user chose: a resource
// offer from a fresh resource search, an image and a shell command, completions, parallelism,
// timeout, retries (backoff or per-index), env and a NAS volume mounted at a directory.

import type { TaskResource } from '../tasks/operations';
import type { JobCreateBody, JobModParam } from './operations';

export interface JobSpec {
  name: string;
  resource: TaskResource;
  image: string;
  /** Shell command line; run by /bin/sh -c in `workdir` (when given). */
  command: string;
  workdir?: string;
  spot: boolean;
  estimatedSec?: number;
  timeoutSec: number;
  completions: number;
  parallelism: number;
  indexed: boolean;
  retries: number;
  env: { name: string; value: string }[];
  volume?: { storageId: number; targetDir: string };
}

/** POSIX single-quoting: the value is data, never shell syntax. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function buildJobBody(spec: JobSpec): JobCreateBody {
  const modParam: JobModParam = spec.indexed
    ? { default: null, index: { index_backoff_limit: spec.retries, max_failed_index: null } }
    : { default: { backoff_limit: spec.retries, restart_policy: 'Never' }, index: null };
  const script = spec.workdir ? `cd ${shellQuote(spec.workdir)} && ${spec.command}` : spec.command;
  return {
    task_name: spec.name,
    sub_type: spec.spot ? 'Spot' : null,
    resources: [{ resource: { ...spec.resource.resource }, region_name: spec.resource.region_name, mark: spec.resource.mark }],
    points: spec.completions,
    job_support: {
      estimated_exec_sec: spec.spot ? (spec.estimatedSec ?? Math.max(1, Math.floor(spec.timeoutSec / 2))) : null,
      timeout_sec: spec.timeoutSec,
      parallelism: Math.min(spec.parallelism, spec.completions),
      mod_param: modParam,
    },
    services: [
      {
        service_name: 'container-01',
        service_image: spec.image,
        resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 }, // each > 0, also on a CPU node (docs/sandbox-rules.md)
        env: spec.env.map((entry) => ({ name: entry.name, value: entry.value })),
        start_script: { command: ['/bin/sh', '-c'], args: [script] },
        nas_storage_config: spec.volume ? [{ storage_id: spec.volume.storageId, target_dir: spec.volume.targetDir }] : null,
      },
    ],
  };
}
