// How the deployments area follows remote state (docs/deployments.md), without a platform poll of its own:
// discovery runs on the task lists the remote-state store already fetches (or on a store refresh when
// asked: after a deploy, in tests); readiness follows one deployment through the task store's changes
// (its status and service URL) and adds only its own bounded probe of the URL's `/v1/models` (one request,
// a short deadline, only while the task is Running), with the follower's backoff, until it answers or the
// task is paused or ended.

import type { TaskSummary } from '../../core/compute/api';
import { followReadiness, type DeployPhase, type FollowResult, type ReadinessObservation } from '../../core/deployments/readiness';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import type { DeploymentRegistry } from './deploymentRegistry';
import { loadDeploymentsCore } from './lazyDeployments';

export class DeploymentPolling {
  private running: Promise<void> | undefined;
  private next: readonly TaskSummary[] | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly registry: DeploymentRegistry,
    private readonly refreshTasks: () => Promise<readonly TaskSummary[]>,
    private readonly state: RemoteState,
  ) {}

  /**
   * The task store polled: discover from its list, one pass at a time. A list that comes during a pass
   * runs after it (only the newest), so the last pass is always over the newest list: an older list
   * (a task still Paused) never has the last word over a newer one (it runs again).
   */
  onTasks(tasks: readonly TaskSummary[]): void {
    if (this.running) {
      this.next = tasks;
      return;
    }
    this.running = this.registry
      .refresh(tasks)
      .catch((error: unknown) => this.services.logger.warn(`Deployments: discovery failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = undefined;
        const next = this.next;
        this.next = undefined;
        if (next) this.onTasks(next);
      });
  }

  /** Has the store poll now and discovers from its tasks. */
  async refreshNow(signal?: AbortSignal): Promise<void> {
    while (this.running) await this.running;
    await this.registry.refresh(await this.refreshTasks(), signal);
  }

  /** Follows a deployment (new, or just recovered) until its URL lists a model, or its task is paused or ended. */
  follow(taskId: number, onPhase: (phase: DeployPhase, observation: ReadinessObservation) => void, signal?: AbortSignal, delays?: { firstDelayMs: number; maxDelayMs: number }): Promise<FollowResult> {
    const profileId = this.services.profiles.active?.id;
    // The task was just created or recovered: the store looks again (within the platform's floor) and
    // keeps polling while it is Pending or Running. A task missing from a listing made after this is gone.
    const since = Date.now();
    this.state.wake(profileId);
    return followReadiness({ observe: (bounded) => this.observe(profileId, taskId, since, bounded), onPhase, ...(signal ? { signal } : {}), ...(delays ?? {}) });
  }

  private async observe(profileId: string | undefined, taskId: number, since: number, signal: AbortSignal | undefined): Promise<ReadinessObservation> {
    const tasks = profileId === undefined ? undefined : this.state.of(profileId)?.tasks;
    const task = tasks?.get(taskId);
    if (!task) {
      // Only a listing that started after the follow began can tell the task is gone (one that started
      // before the task was created may well finish after).
      const gone = tasks !== undefined && tasks.listedSince !== undefined && tasks.listedSince >= since && tasks.completeness.complete && tasks.error === undefined;
      return { taskStatus: gone ? 'End' : 'Pending', nodeStatuses: [] };
    }
    const observation: ReadinessObservation = { taskStatus: task.status, nodeStatuses: task.runing_points > 0 ? ['Running'] : [] };
    if (task.status !== 'Running') return observation;
    const url = task.services.flatMap((service) => service.remote_ports ?? []).find((port) => port.url)?.url ?? undefined;
    if (url) {
      observation.url = url.replace(/\/+$/, '');
      const probe = await loadDeploymentsCore().probeDeployment(observation.url, () => this.registry.keyOf(profileId ?? '', taskId), signal);
      if (probe.ok) observation.models = probe.models.filter((model) => model.chat);
    }
    return observation;
  }
}
