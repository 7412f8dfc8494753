// How a job record reads on the wire (docs/platform.md "Batch jobs"): the list item, the detail and the
// job's pods as node list items, with the three time formats the docs show (detail RFC 3339 +08:00,
// list space-separated, job_status UTC Z). Write-only fields (the repository password) never come back.

import type { JobDetail, JobSummary } from '../../../src/core/jobs/operations';
import type { SandboxClock } from '../clock';
import { activePods, podMs, runMs, type JobRecord } from './records';

/** The platform bills every 5 minutes; forecast_value is the next period at the current rate. */
const BILLING_PERIOD_SECONDS = 300;

export function jobSummary(clock: SandboxClock, job: JobRecord, createTime: string): JobSummary {
  const now = clock.realNow();
  const running = activePods(job).length;
  const indexed = job.indexes.length > 0;
  return {
    task_id: job.id,
    task_name: job.body.task_name,
    sub_type: job.body.sub_type ?? null,
    schedule_status: job.schedule,
    resources: job.body.resources.map((resource) => ({ ...resource, resource: { ...resource.resource } })),
    status: job.lifecycle,
    points: job.body.points,
    runing_points: running,
    billing_value: Math.floor((podMs(job, now) / 1000) * job.pricePerSecond),
    forecast_value: running * job.pricePerSecond * BILLING_PERIOD_SECONDS,
    create_time: createTime,
    job_support: structuredClone(job.body.job_support),
    job_status: {
      create_time: job.startedAt === undefined ? null : formatUtc(clock, job.startedAt),
      status: job.execution,
      completion_time: job.completedAt === undefined || job.execution !== 'Complete' ? null : formatUtc(clock, job.completedAt),
      active_pods: job.lifecycle === 'Running' ? running : null,
      succeeded_pods: job.succeededPods,
      failed_pods: job.failedPods,
      completion_mode: indexed ? 'Indexed' : 'NonIndexed',
    },
    // Write-only fields (the repository password) never come back.
    services: job.body.services.map(({ repository_account: _account, ...service }) => ({
      ...structuredClone(service),
      // Detail fills in each port's public URL once the job runs (more §5.3); `.invalid` never resolves.
      ...(service.remote_ports ? { remote_ports: service.remote_ports.map(({ service_port }) => ({ url: job.lifecycle === 'Running' ? `https://${job.deploymentName}-${service_port}.sandbox.invalid` : null, service_port })) } : {}),
    })),
  };
}

/** One row of the job list. */
export function jobListItem(clock: SandboxClock, job: JobRecord): JobSummary {
  return { ...jobSummary(clock, job, formatListTime(clock, job.createdAt)), task_type: 'Job' };
}

export function jobDetail(clock: SandboxClock, job: JobRecord): JobDetail {
  const running = activePods(job).length;
  return {
    ...jobSummary(clock, job, formatRfc3339(clock, job.createdAt)),
    deployment_name: job.deploymentName,
    billing_points: running,
    billing_time: Math.floor(podMs(job, clock.realNow()) / 1000),
    last_update_time: formatRfc3339(clock, job.lastUpdateAt),
    share_disk_volumes: job.body.share_disk_volumes ?? null,
    share_mem_volumes: job.body.share_mem_volumes ?? null,
    task_qos: job.body.task_qos ?? null,
  };
}

/** The job's pods as node list items, optionally only those with one of `statuses`. */
export function jobNodes(clock: SandboxClock, job: JobRecord, statuses?: string[]): unknown[] {
  const now = clock.realNow();
  const first = job.body.resources[0];
  return job.pods
    .filter((pod) => !statuses || statuses.includes(pod.status))
    .map((pod) => ({
      point_id: pod.pointId,
      name: pod.name,
      status: pod.status,
      region: first?.resource.region ?? '',
      region_name: first?.region_name ?? '',
      resource: { gpu_name: first?.resource.gpu_name ?? null, gpu_count: String(first?.resource.gpu_count ?? 0), cpu_cores: String(first?.resource.cpu_cores ?? 0) },
      containers: pod.containers.map((container) => ({
        service_name: container.service.service_name,
        name: `${pod.name}-${container.service.service_name}`,
        image: container.service.service_image,
        gpu_limit: first?.resource.gpu_count ?? 0,
        reason: container.reason,
        message: container.reason,
        // Typed string in the docs (docs/sandbox-rules.md), so a client must parse it.
        exit_code: container.lastExit === null ? null : String(container.lastExit),
      })),
      runing_time: Math.floor(runMs(pod, now) / 1000),
      billing_value: Math.floor((runMs(pod, now) / 1000) * job.pricePerSecond),
      port_mappings: null,
      describe_dto: { restart_count: pod.restarts, last_restart_time: pod.lastRestartAt === undefined ? null : formatRfc3339(clock, pod.lastRestartAt) },
    }));
}

// ---- the three time formats the docs show ----

function wall(clock: SandboxClock, realMs: number): Date {
  return new Date(realMs + clock.offsetMs + 8 * 3600_000);
}

/** 2026-04-21T09:01:23.441992+08:00 (detail). */
function formatRfc3339(clock: SandboxClock, realMs: number): string {
  return `${wall(clock, realMs).toISOString().replace(/Z$/, '')}000+08:00`;
}

/** 2026-04-21 09:04:20.500576 +08:00 (list). */
function formatListTime(clock: SandboxClock, realMs: number): string {
  return `${wall(clock, realMs).toISOString().replace('T', ' ').replace(/Z$/, '')}000 +08:00`;
}

/** 2026-04-21T01:01:23Z (job_status). */
function formatUtc(clock: SandboxClock, realMs: number): string {
  return new Date(realMs + clock.offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
