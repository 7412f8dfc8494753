// Which running tasks serve an OpenAI-compatible model API (docs/deployments.md): their service URLs are
// probed with `GET /v1/models` (no key), the answer remembered per task; known deployments are probed
// again on every refresh so one that stops answering says so, and a task that is paused or ended drops
// out with its reason. A task that answered nothing is not probed again until its URLs change or
// `retryNegativeMs` passed. Bounded: at most `maxProbesPerRefresh` new URLs per refresh.

import type { TaskStatus, TaskSummary } from '../compute/api';
import { isAbort } from '../errors';
import type { ModelInfo } from '../inference/api';

export type DeploymentState = 'ready' | 'unreachable' | 'paused' | 'ended';

export interface Deployment {
  taskId: number;
  taskName: string;
  /** The service URL that answered (no trailing slash, no /v1). */
  url: string;
  /** Chat models it lists. */
  models: ModelInfo[];
  state: DeploymentState;
  /** Effective price per node (points/s) and node count, for ¥/h and cost per answer. */
  pointsPerSecond: number | undefined;
  nodes: number;
}

export type ProbeResult = { ok: true; models: ModelInfo[] } | { ok: false; reason: string };

export interface DiscoveryDeps {
  /** GET {url}/v1/models without a key (or with the deployment's own key). */
  probe(url: string, taskId: number, signal?: AbortSignal): Promise<ProbeResult>;
  /** The task's effective price per node in points/s, if known (region price from its resource). */
  priceOf(task: TaskSummary): number | undefined;
  now(): number;
  retryNegativeMs?: number;
  maxProbesPerRefresh?: number;
}

interface Negative {
  urls: string;
  at: number;
}

export function serviceUrls(task: TaskSummary): string[] {
  const urls: string[] = [];
  for (const service of task.services) for (const port of service.remote_ports) if (port.url) urls.push(port.url.replace(/\/+$/, ''));
  return urls.slice(0, 16);
}

function stateFor(status: TaskStatus): DeploymentState | undefined {
  return status === 'Paused' ? 'paused' : status === 'End' ? 'ended' : undefined;
}

export class DeploymentDiscovery {
  private readonly known = new Map<number, Deployment>();
  private readonly negatives = new Map<number, Negative>();

  constructor(private readonly deps: DiscoveryDeps) {}

  list(): Deployment[] {
    return [...this.known.values()];
  }

  get(taskId: number): Deployment | undefined {
    return this.known.get(taskId);
  }

  /** A deployment found another way (Deploy a Model… followed it until ready). */
  remember(deployment: Deployment): void {
    this.known.set(deployment.taskId, deployment);
    this.negatives.delete(deployment.taskId);
  }

  forget(taskId: number): void {
    this.known.delete(taskId);
    this.negatives.delete(taskId);
  }

  /** One pass over the task list; resolves true when anything shown changed. */
  async refresh(tasks: readonly TaskSummary[], signal?: AbortSignal): Promise<boolean> {
    let changed = false;
    const seen = new Set<number>();
    const probes: Promise<void>[] = [];
    let budget = this.deps.maxProbesPerRefresh ?? 8;
    const now = this.deps.now();
    for (const task of tasks) {
      seen.add(task.task_id);
      const known = this.known.get(task.task_id);
      const stopped = stateFor(task.status);
      if (stopped) {
        if (known && known.state !== stopped) {
          known.state = stopped;
          changed = true;
        }
        this.negatives.delete(task.task_id);
        continue;
      }
      if (task.status !== 'Running') continue;
      const urls = serviceUrls(task);
      if (known) {
        known.taskName = task.task_name;
        known.nodes = task.runing_points || task.points;
        known.pointsPerSecond = this.deps.priceOf(task) ?? known.pointsPerSecond;
        const url = urls.includes(known.url) ? known.url : urls[0];
        if (url === undefined) continue;
        probes.push(this.probeKnown(known, url, signal).then((didChange) => void (changed ||= didChange)));
        continue;
      }
      const negative = this.negatives.get(task.task_id);
      const key = urls.join(' ');
      if (negative && negative.urls === key && now - negative.at < (this.deps.retryNegativeMs ?? 300_000)) continue;
      if (urls.length === 0 || budget <= 0) continue;
      budget--;
      probes.push(this.probeNew(task, urls, key, signal).then((didChange) => void (changed ||= didChange)));
    }
    await Promise.all(probes);
    // Tasks no longer listed at all (deleted): they cannot answer.
    for (const [taskId, deployment] of this.known) {
      if (!seen.has(taskId) && deployment.state !== 'ended') {
        deployment.state = 'ended';
        changed = true;
      }
    }
    return changed;
  }

  private async probeKnown(known: Deployment, url: string, signal: AbortSignal | undefined): Promise<boolean> {
    const result = await this.safeProbe(url, known.taskId, signal);
    const before = JSON.stringify([known.state, known.url, known.models.map((model) => model.id)]);
    if (result.ok && result.models.length > 0) {
      known.state = 'ready';
      known.url = url;
      known.models = result.models;
    } else {
      known.state = 'unreachable';
    }
    return JSON.stringify([known.state, known.url, known.models.map((model) => model.id)]) !== before;
  }

  private async probeNew(task: TaskSummary, urls: string[], key: string, signal: AbortSignal | undefined): Promise<boolean> {
    for (const url of urls) {
      const result = await this.safeProbe(url, task.task_id, signal);
      if (result.ok && result.models.length > 0) {
        this.known.set(task.task_id, {
          taskId: task.task_id,
          taskName: task.task_name,
          url,
          models: result.models,
          state: 'ready',
          pointsPerSecond: this.deps.priceOf(task),
          nodes: task.runing_points || task.points,
        });
        this.negatives.delete(task.task_id);
        return true;
      }
    }
    this.negatives.set(task.task_id, { urls: key, at: this.deps.now() });
    return false;
  }

  private async safeProbe(url: string, taskId: number, signal: AbortSignal | undefined): Promise<ProbeResult> {
    try {
      const result = await this.deps.probe(url, taskId, signal);
      return result.ok ? { ok: true, models: result.models.filter((model) => model.chat) } : result;
    } catch (error) {
      if (isAbort(error) && signal?.aborted) throw error;
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
