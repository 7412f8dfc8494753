// The one place the deployments area polls remote state (docs/deployments.md): discovery runs on the task
// lists the remote-state store already fetches (no task-list request of its own), or on a store refresh
// when asked (after a deploy, in tests); readiness follows one new deployment — task detail, nodes, the first node's
// log and a probe of its URL — with the follower's backoff until it answers or is paused.

import type { TaskSummary } from '../../core/compute/api';
import { followReadiness, type DeployPhase, type FollowResult, type ReadinessObservation } from '../../core/deployments/readiness';
import type { ExtensionServices } from '../services';
import type { DeploymentRegistry } from './deploymentRegistry';
import { loadDeploymentsCore } from './lazyDeployments';

export class DeploymentPolling {
  private running: Promise<void> | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly registry: DeploymentRegistry,
    private readonly refreshTasks: () => Promise<readonly TaskSummary[]>,
  ) {}

  /** The task watcher polled: discover from its list (one pass at a time; a pass in flight is enough). */
  onTasks(tasks: readonly TaskSummary[]): void {
    if (this.running) return;
    this.running = this.registry
      .refresh(tasks)
      .catch((error: unknown) => this.services.logger.warn(`Deployments: discovery failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.running = undefined));
  }

  /** Has the store poll now and discovers from its tasks. */
  async refreshNow(signal?: AbortSignal): Promise<void> {
    await this.running;
    await this.registry.refresh(await this.refreshTasks(), signal);
  }

  /** Follows a new deployment until its URL lists a model, or its task is paused or ended. */
  follow(taskId: number, onPhase: (phase: DeployPhase, observation: ReadinessObservation) => void, signal?: AbortSignal, delays?: { firstDelayMs: number; maxDelayMs: number }): Promise<FollowResult> {
    return followReadiness({ observe: (bounded) => this.observe(taskId, bounded), onPhase, ...(signal ? { signal } : {}), ...(delays ?? {}) });
  }

  private async observe(taskId: number, signal: AbortSignal | undefined): Promise<ReadinessObservation> {
    const client = this.services.computeClient();
    const options = signal ? { signal } : undefined;
    const detail = await client.call('task.detail', { task_id: taskId }, options);
    const observation: ReadinessObservation = { taskStatus: detail.status, nodeStatuses: [] };
    if (detail.status !== 'Running' && detail.status !== 'Pending') return observation;
    const nodes = await client.call('node.list', { task_id: taskId }, options);
    observation.nodeStatuses = nodes.results.map((node) => node.status);
    const node = nodes.results.find((candidate) => candidate.status === 'Running');
    const service = detail.services[0];
    if (node && service) observation.log = (await client.call('node.log', { task_id: taskId, point_id: node.point_id, service_id: service.service_id }, options)).logs;
    const url = detail.services.flatMap((candidate) => candidate.remote_ports).find((port) => port.url)?.url ?? undefined;
    if (url) {
      observation.url = url.replace(/\/+$/, '');
      const probe = await loadDeploymentsCore().probeDeployment(observation.url, () => this.registry.keyOf(this.services.profiles.active?.id ?? '', taskId), signal);
      if (probe.ok) observation.models = probe.models.filter((model) => model.chat);
    }
    return observation;
  }
}
