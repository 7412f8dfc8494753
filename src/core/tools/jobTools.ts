// Batch job tools (src/core/jobs): run a job, read its status, tail its pod logs (bounded, escape
// codes removed), stop it. Run confirms first with the profile, the rate and the most it can cost
// (all parallel pods for the whole timeout); stop confirms as destructive (no recover for jobs).

import { estimateJobCost } from '../jobs/cost';
import { plainLogLine } from '../terminalText';
import { buildJobBody, type JobSpec } from '../jobs/jobBody';
import type { JobDetail } from '../jobs/operations';
import { jobView } from '../jobs/status';
import { durationEnglish } from '../duration';
import { formatPoints } from '../spend/units';
import { ConfigError } from '../errors';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './api';
import type * as jobInputs from './inputs/jobInputs';
import { confirmation } from './confirmation';
import { strongestEffect } from './effects';
import { field, tailLines } from './format';
import { sentValueLines } from './shownWhole';
import { findOffer } from './pricing';
import { deviceLabel } from '../deviceLabel';
import { jobsOf, resourcesOf, tasksOf, volumesOf } from './services';


function jobPhrase(job: JobDetail): string {
  const view = jobView(job, Date.now());
  return `job "${field(job.task_name, 80)}" (${job.task_id}), ${view.phase}${view.spot ? ' (Spot)' : ''}`;
}

async function specFrom(input: Record<string, unknown>, context: ToolContext): Promise<{ spec: JobSpec; pointsPerSecond: number; label: string }> {
  const offer = await findOffer(resourcesOf(context), String(input['device_name']), String(input['region']), context.signal);
  const pointsPerSecond = offer.region.discount_price ?? offer.region.price;
  if (pointsPerSecond === null || pointsPerSecond === undefined) throw new ConfigError(`${offer.device.device_name} has no listed price in ${offer.region.region_name}.`);
  const spot = input['spot'] !== false;
  const timeoutSec = typeof input['timeout_sec'] === 'number' ? input['timeout_sec'] : 3600;
  const env = (input['env'] as Record<string, string> | undefined) ?? {};
  const storageId = input['storage_id'] as number | undefined;
  // Refused before the confirmation and before anything is sent: a volume mounts only Active, in its own region.
  if (storageId !== undefined) await volumesOf(context).requireMountable(storageId, offer.region.region_name, context.signal);
  const spec: JobSpec = {
    name: String(input['job_name']).trim(),
    resource: { resource: offer.region.mark.resource, region_name: offer.region.region_name, mark: offer.region.mark.mark },
    image: String(input['image']).trim(),
    command: String(input['command']),
    ...(storageId !== undefined ? { workdir: String(input['target_dir'] ?? '/mnt/nas') } : {}),
    spot,
    estimatedSec: typeof input['estimated_sec'] === 'number' ? input['estimated_sec'] : Math.max(1, Math.floor(timeoutSec / 2)),
    timeoutSec,
    completions: typeof input['completions'] === 'number' ? input['completions'] : 1,
    parallelism: typeof input['parallelism'] === 'number' ? input['parallelism'] : 1,
    indexed: input['indexed'] === true,
    retries: typeof input['retries'] === 'number' ? input['retries'] : 0,
    env: Object.entries(env).map(([name, value]) => ({ name, value })),
    ...(storageId !== undefined ? { volume: { storageId, targetDir: String(input['target_dir'] ?? '/mnt/nas') } } : {}),
  };
  if (spot && spec.estimatedSec !== undefined && spec.estimatedSec >= timeoutSec) throw new ConfigError('estimated_sec must be below timeout_sec.');
  return { spec, pointsPerSecond, label: `${deviceLabel(offer.device)} in ${offer.region.region_name} (${offer.region.inventory > 0 ? `${offer.region.inventory} in stock` : 'sold out: the job may wait'})` };
}

/** Everything the job sends that the model chose, whole and escaped. */
function sentLines(spec: JobSpec): string[] {
  return sentValueLines(
    { image: spec.image, command: spec.command, env: spec.env, ...(spec.volume ? { volume: spec.volume } : {}) },
    'The job\'s command and env variables are',
    'Put the command in a script on the volume and run that; pass fewer or shorter env variables.',
  );
}

export const runJob: ToolDefinition<z.output<typeof jobInputs.runJob>> = {
  name: 'compute_run_job',
  toolReferenceName: 'computeRunJob',
  displayName: 'Run Batch Job',
  userDescription: 'Run a command in a container on a rented GPU until it finishes (spends money while it runs).',
  modelDescription:
    'Create a batch job (Job 批处理): run a shell command in a container image on rented GPUs until it completes (training, evaluation, ' +
    'batch inference). SPENDS MONEY per second per pod while it runs, at most until timeout_sec; the user confirms the rate and the cap ' +
    'first. Spot (default) is cheaper and may wait in a queue. Take device_name and region from compute_search_gpus. Mount a NAS ' +
    'volume with storage_id and target_dir; the command then runs in target_dir. Returns the job id; follow it with compute_get_job ' +
    'and compute_job_logs.',
  input: (inputs) => inputs.jobs.runJob,
  operations: ['resource.search', 'nas.list', 'job.create'],
  effect: strongestEffect(['resource.search', 'nas.list', 'job.create']),
  idempotent: false,
  invocationMessage: (input) => `Creating job "${field(input['job_name'], 64)}"…`,
  async confirm(input, context) {
    const { spec, pointsPerSecond, label } = await specFrom(input, context);
    const cost = estimateJobCost({ pointsPerSecond, completions: spec.completions, parallelism: spec.parallelism, timeoutSec: spec.timeoutSec, estimatedSec: spec.spot ? spec.estimatedSec : null });
    return confirmation('write', context.profile, `Run job "${field(spec.name, 64)}"?`, [
      `Resource: ${Math.min(spec.parallelism, spec.completions)} pod(s) at once of ${label}, ${spec.spot ? 'Spot' : 'on-demand'}.`,
      `Cost: ${cost.rateText} while running; at most ${cost.capText} (timeout ${durationEnglish(spec.timeoutSec)})${cost.expectedText ? `, about ${cost.expectedText} expected` : ''}.`,
      ...sentLines(spec),
    ]);
  },
  async run(input, context) {
    const { spec } = await specFrom(input, context);
    // Refused here too: the confirmation could not have shown it whole.
    sentLines(spec);
    if (/\s/.test(spec.image)) throw new ConfigError('The image reference contains spaces.', 'Use registry/repository:tag.');
    const id = await jobsOf(context).create(buildJobBody(spec), context.signal);
    return `Created job ${id} "${field(spec.name)}". It starts Pending${spec.spot ? ' (Spot: it may wait in the queue)' : ''}; check it with compute_get_job (at most every 10 s) and read output with compute_job_logs.`;
  },
};

export const getJob: ToolDefinition<z.output<typeof jobInputs.jobId>> = {
  name: 'compute_get_job',
  toolReferenceName: 'computeGetJob',
  displayName: 'Get Batch Job',
  userDescription: 'A batch job\'s status, pods, time and cost.',
  modelDescription: 'Read one batch job: phase (queued, pending, running, succeeded, failed, stopped), the raw status fields, succeeded and failed pods, elapsed time and what it has cost so far. Poll at most every 10 s.',
  input: (inputs) => inputs.jobs.jobId,
  operations: ['job.detail'],
  effect: 'read',
  idempotent: true,
  invocationMessage: (input) => `Reading job ${String(input['task_id'])}…`,
  async run(input, context) {
    const job = await jobsOf(context).detail(input['task_id'] as number, context.signal);
    const view = jobView(job, Date.now());
    return [
      `Job ${job.task_id} "${field(job.task_name)}": ${view.phase}${view.ended ? ' (ended)' : ''}.`,
      `status ${field(job.status, 20)}, job_status ${field(view.execution, 20)}${view.spot ? `, schedule_status ${field(view.schedule ?? 'null', 20)}` : ''}.`,
      `Pods: ${view.succeeded} succeeded, ${view.failed} failed, ${view.active} active; ${view.completions} completion(s) needed, ${view.parallelism} at once.`,
      `Elapsed ${durationEnglish(view.elapsedSeconds)}; billed so far ${formatPoints(view.billedPoints)}.`,
    ].join('\n');
  },
};

export const jobLogs: ToolDefinition<z.output<typeof jobInputs.jobLogs>> = {
  name: 'compute_job_logs',
  toolReferenceName: 'computeJobLogs',
  displayName: 'Batch Job Logs',
  userDescription: 'The last lines each pod of a batch job printed.',
  modelDescription: 'Read the last lines of each pod\'s log of a batch job (colour codes removed), to see its progress or why it failed. Bounded: at most `lines` per pod and the newest pods first.',
  input: (inputs) => inputs.jobs.jobLogs,
  operations: ['job.detail', 'node.list', 'node.log'],
  effect: 'read',
  idempotent: true,
  invocationMessage: (input) => `Reading the logs of job ${String(input['task_id'])}…`,
  async run(input, context) {
    const id = input['task_id'] as number;
    const job = await jobsOf(context).detail(id, context.signal);
    const serviceId = job.services[0]?.service_id;
    if (typeof serviceId !== 'number') throw new ConfigError(`Job ${id} lists no container.`);
    const pods = (await jobsOf(context).pods(id, context.signal)).filter((pod) => pod.status !== 'Pending').reverse().slice(0, 5);
    if (pods.length === 0) return `Job ${id} has no started pod yet (${jobView(job, Date.now()).phase}): no log.`;
    const wanted = typeof input['lines'] === 'number' ? input['lines'] : 60;
    const budget = Math.floor(((context.resultLimitChars ?? 16_000) - 400) / pods.length);
    const parts: string[] = [];
    for (const pod of pods) {
      const { logs } = await tasksOf(context).nodeLog({ taskId: id, pointId: pod.point_id, serviceId }, context.signal);
      const cleaned = (logs ?? '').split('\n').map(plainLogLine).join('\n');
      const tail = tailLines(cleaned, wanted, budget);
      parts.push(`Pod ${field(pod.name, 80)} (${field(pod.status, 20)}): last ${tail.shown} of ${tail.total} line(s):\n${tail.text}`);
    }
    return parts.join('\n\n');
  },
};

export const stopJob: ToolDefinition<z.output<typeof jobInputs.jobId>> = {
  name: 'compute_stop_job',
  toolReferenceName: 'computeStopJob',
  displayName: 'Stop Batch Job',
  userDescription: 'Stop a batch job for good (its pods are killed).',
  modelDescription: 'Stop a Pending or Running batch job: its pods are killed, billing stops and the job ends; it cannot be resumed (run it again instead). Use only when the user wants it stopped.',
  input: (inputs) => inputs.jobs.jobId,
  operations: ['job.detail', 'job.stop'],
  effect: strongestEffect(['job.detail', 'job.stop']),
  idempotent: true,
  invocationMessage: (input) => `Stopping job ${String(input['task_id'])}…`,
  async confirm(input, context) {
    const job = await jobsOf(context).detail(input['task_id'] as number, context.signal);
    const view = jobView(job, Date.now());
    return confirmation('destructive', context.profile, `Stop job "${field(job.task_name, 64)}" (${job.task_id})?`, [
      `Job: ${jobPhrase(job)}, running ${durationEnglish(view.elapsedSeconds)}, billed ${formatPoints(view.billedPoints)} so far.`,
      'Its pods are killed now; what they have not written to a volume is lost, and the job cannot be resumed.',
    ]);
  },
  async run(input, context) {
    const id = input['task_id'] as number;
    await jobsOf(context).stop(id, context.signal);
    return `Job ${id} stopped: its pods are killed and billing stops.`;
  },
};
