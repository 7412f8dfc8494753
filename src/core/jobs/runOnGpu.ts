// Run on GPU (docs/platform.md "Batch jobs"): sync a local folder to a NAS volume (only what changed),
// create a job that mounts the volume and runs the command in the synced folder, and follow it to the
// end. The folder sync is the NAS area's (src/core/nas syncFolder); it is passed in as FolderSyncer, with the
// mount check: the volume is checked first (Active, in the GPU's region); resources are looked up fresh by device and region
// again after the sync (marks expire).

import type { NodeDetail } from '../compute/api';
import { ConfigError, coreText } from '../errors';
import { deviceLabel } from '../deviceLabel';
import { shownValue } from '../shownValue';
import { buildJobBody } from './jobBody';
import type { JobDetail } from './operations';
import { ResourceService } from '../resources/resourceService';
import type { ClientSource } from '../state/servicePorts';
import { JobService } from './jobService';
import { followJob, type PodLine } from './polling';
import type { RunConfig } from './runConfig';
import { jobCostPoints, jobView, parseExitCode, type JobView } from './status';

export interface SyncSummary {
  sent: number;
  skipped: number;
  bytes: number;
}

export interface FolderSyncer {
  /** Throws (a ConfigError saying why) unless the volume is Active and in `regionName` (src/core/nas requireMountableVolume). */
  checkMount(storageId: number, regionName: string, signal?: AbortSignal): Promise<unknown>;
  sync(options: { storageId: number; localDir: string; remoteDir: string; signal?: AbortSignal }): Promise<SyncSummary>;
}

export interface RunHandlers {
  onPhase?(phase: 'syncing' | 'creating' | 'following', detail?: string): void;
  onSynced?(summary: SyncSummary): void;
  onCreated?(jobId: number): void;
  onStatus?(view: JobView): void;
  onLines(lines: readonly PodLine[], gap: boolean): void;
}

export interface RunOutcome {
  jobId: number;
  view: JobView;
  costPoints: number;
  pods: readonly NodeDetail[];
  /** Exit code of the last pod that ran, when the platform reports one. */
  exitCode: number | null;
  sync: SyncSummary;
}

/** What a run reads and creates, through the kinds' services (the only callers of the client for their operations). */
export interface RunServices {
  resources: Pick<ResourceService, 'deployments'>;
  jobs: JobService;
}

/** A run's services over one client source (the editor: the client the run started with; the tests: theirs). */
export function runServices(client: ClientSource): RunServices {
  return { resources: new ResourceService(client), jobs: new JobService(client) };
}

/** The offer for a run config: device and region from a fresh resource search. */
export async function findRunResource(resources: RunServices['resources'], config: Pick<RunConfig, 'resource'>, signal?: AbortSignal) {
  const devices = await resources.deployments(signal);
  for (const device of devices.results) {
    if (device.device_name !== config.resource.deviceName) continue;
    const region = device.regions.find((candidate) => candidate.region === config.resource.region);
    if (region) return { device, region, pointsPerSecond: region.discount_price ?? region.price ?? 0 };
  }
  throw new ConfigError(coreText('job.resourceGone', deviceLabel({ device_name: config.resource.deviceName }), shownValue(config.resource.region, 80)), coreText('job.resourceGone.hint'));
}

export async function runOnGpu(
  services: RunServices,
  syncer: FolderSyncer,
  input: { config: RunConfig; localDir: string; jobName: string; followIntervalMs?: number; signal?: AbortSignal },
  handlers: RunHandlers,
): Promise<RunOutcome> {
  const { config, signal } = input;
  // The volume must mount where the GPU is (Active, same region): refused before a byte is uploaded.
  const chosen = await findRunResource(services.resources, config, signal);
  await syncer.checkMount(config.volume.storageId, chosen.region.region_name, signal);
  handlers.onPhase?.('syncing');
  const sync = await syncer.sync({ storageId: config.volume.storageId, localDir: input.localDir, remoteDir: config.volume.remoteDir, ...(signal ? { signal } : {}) });
  handlers.onSynced?.(sync);
  handlers.onPhase?.('creating');
  const offer = await findRunResource(services.resources, config, signal);
  const workdir = `${config.volume.targetDir}${config.volume.remoteDir === '/' ? '' : config.volume.remoteDir}`;
  const body = buildJobBody({
    name: input.jobName,
    resource: { resource: offer.region.mark.resource, region_name: offer.region.region_name, mark: offer.region.mark.mark },
    image: config.image,
    command: config.command,
    workdir,
    spot: config.spot,
    estimatedSec: config.estimatedSec,
    timeoutSec: config.timeoutSec,
    completions: config.completions,
    parallelism: config.parallelism,
    indexed: config.indexed,
    retries: config.retries,
    env: config.env,
    volume: { storageId: config.volume.storageId, targetDir: config.volume.targetDir },
  });
  const jobId = await services.jobs.create(body, signal);
  handlers.onCreated?.(jobId);
  handlers.onPhase?.('following');
  let end: { job: JobDetail; pods: readonly NodeDetail[] } | undefined;
  await followJob(
    services.jobs,
    jobId,
    {
      onLines: (lines, gap) => handlers.onLines(lines, gap),
      onStatus: (job) => handlers.onStatus?.(jobView(job, Date.now())),
      onEnd: (job, pods) => (end = { job, pods }),
    },
    // A test's short interval applies to the status reads too; the product keeps the 10 s floor for them.
    { ...(input.followIntervalMs !== undefined ? { intervalMs: input.followIntervalMs, statusIntervalMs: input.followIntervalMs } : {}), ...(signal ? { signal } : {}) },
  );
  if (!end) throw new ConfigError(coreText('job.stoppedFollowing', jobId));
  const view = jobView(end.job, Date.now());
  const podSeconds = end.pods.reduce((total, pod) => total + (typeof pod.runing_time === 'number' ? pod.runing_time : 0), 0);
  const last = [...end.pods].reverse().find((pod) => pod.status !== 'Pending');
  const exit = last?.containers?.[0]?.exit_code;
  return { jobId, view, costPoints: jobCostPoints(view, offer.pointsPerSecond, podSeconds), pods: end.pods, exitCode: parseExitCode(exit), sync };
}
