// A job spec → the platform's job create body (platform reference §5.2, POST /api/task/job/create),
// in the types of the job operations (src/core/jobs/operations.ts): Deploy sends it with `job.create`,
// the same call as Create Job…. Differences from a deployment: env is a list of {name, value}, the
// start script is two lists, each container has a resource weight, and the registry login sits on
// the container.

import type { JobCreateBody as JobOperationBody } from '../jobs/operations';
import { JOB_MOUNTS, mountsToWire, type MountField, type WireMounts } from './mountFields';
import type { Offer } from './offers';
import { resolveEnv, type SecretResolver } from './secrets';
import type { JobSpec, SecretRef } from './types';

export type JobService = WireMounts<MountField> & {
  service_name: string;
  service_image: string;
  resource_weight: { cpu_weight: number; mem_weight: number; gpu_weight: number };
  env: { name: string; value: string }[] | null;
  start_script: { command: string[]; args: string[] };
  remote_ports: { service_port: number }[] | null;
  health_checks: Record<string, unknown> | null;
  repository_account: { repository_username: string; repository_password: string | null } | null;
};

/** The create body: the operation's type, with every field this file fills present (null when unused). */
export type JobCreateBody = JobOperationBody & {
  sub_type: 'Spot' | null;
  share_disk_volumes: { name: string }[] | null;
  share_mem_volumes: { name: string; size_limit: number }[] | null;
  task_qos: { class: 'Guaranteed' } | null;
  services: JobService[];
};


/** The body, and the references that have no value (nothing may be sent while any is missing). */
export async function buildJobBody(spec: JobSpec, offer: Offer, resolve: SecretResolver): Promise<{ body: JobCreateBody; missing: SecretRef[] }> {
  const missing: SecretRef[] = [];
  const services: JobService[] = [];
  for (const service of spec.services) {
    const env = await resolveEnv(service.env, resolve);
    missing.push(...env.missing);
    let password: string | null = null;
    if (service.registry?.password) {
      const value = await resolve(service.registry.password);
      if (value === undefined) missing.push(service.registry.password);
      else password = value;
    }
    const entries = Object.entries(env.values);
    services.push({
      service_name: service.name,
      service_image: service.image,
      resource_weight: { cpu_weight: service.weight?.cpu ?? 1, mem_weight: service.weight?.memory ?? 1, gpu_weight: service.weight?.gpu ?? 1 },
      env: entries.length > 0 ? entries.map(([name, value]) => ({ name, value })) : null,
      start_script: { command: service.command ?? [], args: service.args ?? [] },
      remote_ports: service.ports && service.ports.length > 0 ? service.ports.map((service_port) => ({ service_port })) : null,
      ...mountsToWire(service, JOB_MOUNTS),
      health_checks: (service.healthChecks as Record<string, unknown> | undefined) ?? null,
      repository_account: service.registry ? { repository_username: service.registry.username, repository_password: password } : null,
    });
  }
  const retry = spec.retry ?? {};
  const body: JobCreateBody = {
    task_name: spec.name,
    sub_type: spec.spot ? 'Spot' : null,
    resources: [{ mark: offer.region.mark.mark, resource: { ...offer.region.mark.resource }, region_name: offer.region.region_name }],
    share_disk_volumes: spec.sharedDiskVolumes && spec.sharedDiskVolumes.length > 0 ? spec.sharedDiskVolumes.map((name) => ({ name })) : null,
    share_mem_volumes: spec.sharedMemoryVolumes && spec.sharedMemoryVolumes.length > 0 ? spec.sharedMemoryVolumes.map((volume) => ({ name: volume.name, size_limit: volume.sizeMi })) : null,
    points: spec.completions,
    job_support: {
      estimated_exec_sec: spec.estimatedSeconds ?? null,
      timeout_sec: spec.timeoutSeconds,
      parallelism: spec.parallelism,
      // The platform's examples send both keys, the unused one null.
      mod_param: retry.indexed
        ? { default: null, index: { index_backoff_limit: retry.backoffLimit ?? 3, max_failed_index: retry.maxFailedIndex ?? null } }
        : { default: { backoff_limit: retry.backoffLimit ?? 3, restart_policy: retry.restartPolicy ?? 'OnFailure' }, index: null },
    },
    task_qos: spec.dedicatedCpu ? { class: 'Guaranteed' } : null,
    services,
  };
  return { body, missing };
}
