// The active profile's deployments (docs/deployments.md) as the chat and VS Code's model picker see them:
// discovered (core/deployments/discovery.ts) from the task lists the polling file hands in, each model
// labelled with its task and ¥/h; where a request for one goes (its service URL, with only the key the user
// set for that deployment — never the platform's model API key); idle times and idle-pause settings.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import type { TaskSummary } from '../../core/compute/api';
import type { ModelRoutes, RoutedModel } from '../../core/chat/modelRoutes';
import { answerCost, deploymentYuanPerHour } from '../../core/deployments/cost';
import { DeploymentDiscovery, type Deployment } from '../../core/deployments/discovery';
import { IdleTracker } from '../../core/deployments/idle';
import { formatYuanPerHour } from '../../core/spend/units';
import { InFlight } from '../../core/spend/inFlight';
import type { ModelClient } from '../../core/inference/api';
import { deployedModelName } from '../../shared/modelDisplayName';
import type { DeployedModelOption } from '../../shared/protocol';
import { StateKeys } from '../commandIds';
import type { ExtensionServices } from '../services';
import { loadDeploymentsCore } from './lazyDeployments';

export const DEPLOYMENT_MODEL_PREFIX = 'deployment:';

/** `deployment:<taskId>/<model>` ↔ its parts. */
export function deploymentModelId(taskId: number, model: string): string {
  return `${DEPLOYMENT_MODEL_PREFIX}${taskId}/${model}`;
}

export function parseDeploymentModelId(id: string): { taskId: number; model: string } | undefined {
  const match = /^deployment:(\d{1,12})\/(.{1,200})$/s.exec(id);
  return match?.[1] && match[2] ? { taskId: Number(match[1]), model: match[2] } : undefined;
}

export interface DeployedModel {
  id: string;
  model: string;
  deployment: Deployment;
  yuanPerHour: number | undefined;
  label: string;
  /** "Qwen3-8B · my-task": how the chat and VS Code's model list name it. */
  name: string;
  maxModelLen: number | undefined;
}

export class DeploymentRegistry implements ModelRoutes, vscode.Disposable {
  private discovery: DeploymentDiscovery;
  private profileId: string | undefined;
  readonly idle = new IdleTracker();
  /** Deployments answering a request now (an activity of the one rule for pausing, docs/money.md). */
  readonly answering = new InFlight<number>();
  private readonly clients = new Map<string, ModelClient>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Swappable clock: the in-host tests move time instead of waiting minutes. */
  now: () => number = () => Date.now();

  constructor(
    private readonly services: ExtensionServices,
    private readonly priceOfTask: (task: TaskSummary) => Promise<number | undefined>,
  ) {
    this.discovery = this.newDiscovery();
    this.profileId = services.profiles.active?.id;
  }

  /** One pass over the task list (from the task watcher or a direct list). */
  async refresh(tasks: readonly TaskSummary[], signal?: AbortSignal): Promise<void> {
    this.followProfile();
    const prices = new Map<number, number | undefined>();
    await Promise.all(tasks.filter((task) => task.status === 'Running').map(async (task) => prices.set(task.task_id, await this.priceOfTask(task).catch(() => undefined))));
    this.pricesNow = prices;
    const before = this.fingerprint();
    await this.discovery.refresh(tasks, signal);
    this.idle.settle(this.discovery.list(), this.now());
    if (this.fingerprint() !== before) this.changed.fire();
  }

  /** A deployment Deploy a Model… (or Recover) followed until ready: idle time counts from now. */
  remember(deployment: Deployment): void {
    this.followProfile();
    this.discovery.remember(deployment);
    this.idle.touch(deployment.taskId, this.now());
    this.changed.fire();
  }

  /** The extension paused it (idle pause): it cannot answer until recovered. */
  markPaused(taskId: number): void {
    // Forgotten even when a task list said Paused first: a recovered deployment's idle time starts anew.
    this.idle.forget(taskId);
    const deployment = this.discovery.get(taskId);
    if (!deployment || deployment.state === 'paused') return;
    deployment.state = 'paused';
    this.changed.fire();
  }

  list(): Deployment[] {
    this.followProfile();
    return this.discovery.list();
  }

  get(taskId: number): Deployment | undefined {
    return this.discovery.get(taskId);
  }

  /** Every model of every deployment, ready or not (the pickers show why one cannot answer). */
  models(): DeployedModel[] {
    return this.list().flatMap((deployment) =>
      deployment.models.map((model) => {
        const yuanPerHour = deployment.pointsPerSecond !== undefined ? deploymentYuanPerHour(deployment.pointsPerSecond, deployment.nodes) : undefined;
        const rate = yuanPerHour !== undefined ? ` · ${formatYuanPerHour(yuanPerHour)}` : '';
        return {
          id: deploymentModelId(deployment.taskId, model.id),
          model: model.id,
          deployment,
          yuanPerHour,
          // Both parts come from the platform and the server: bounded before they reach a picker.
          label: `${model.id.slice(0, 120)} — ${deployment.taskName.slice(0, 64)}${rate}`,
          name: deployedModelName(model.id, deployment.taskName),
          maxModelLen: model.maxModelLen,
        };
      }),
    );
  }

  options(): DeployedModelOption[] {
    return this.models().map((model) => {
      const reason = this.reasonOf(model.deployment);
      return reason ? { id: model.id, label: model.label, name: model.name, available: false, reason } : { id: model.id, label: model.label, name: model.name, available: true };
    });
  }

  /** Why a deployment cannot answer now, or undefined when it can. */
  reasonOf(deployment: Deployment): string | undefined {
    switch (deployment.state) {
      case 'ready':
        return undefined;
      case 'paused':
        return vscode.l10n.t('paused');
      case 'ended':
        return vscode.l10n.t('ended');
      default:
        return vscode.l10n.t('not answering');
    }
  }

  async route(modelId: string): Promise<RoutedModel | undefined> {
    const parsed = parseDeploymentModelId(modelId);
    if (!parsed) return undefined;
    const deployment = this.get(parsed.taskId);
    if (!deployment) throw new Refusal(vscode.l10n.t('The deployment of task {0} is not known to this profile: pick another model.', parsed.taskId));
    const reason = this.reasonOf(deployment);
    if (reason) throw new Refusal(vscode.l10n.t('The deployment "{0}" cannot answer: it is {1}. Recover the task or pick another model.', deployment.taskName, reason));
    const taskId = deployment.taskId;
    let answered: (() => void) | undefined;
    return {
      client: this.clientFor(deployment),
      model: parsed.model,
      started: () => {
        this.idle.touch(taskId, this.now());
        answered = this.answering.start(taskId);
      },
      finished: (durationMs, usage) => {
        answered?.();
        this.idle.touch(taskId, this.now());
        const current = this.get(taskId) ?? deployment;
        if (current.pointsPerSecond === undefined) return undefined;
        return { ...answerCost(durationMs, current.pointsPerSecond, current.nodes, usage?.completion_tokens), deployment: current.taskName };
      },
    };
  }

  /** The client of a deployment: its service URL, and only its own key (docs/deployments.md). */
  clientFor(deployment: Deployment): ModelClient {
    const key = `${this.profileId ?? ''}\n${deployment.taskId}\n${deployment.url}`;
    let client = this.clients.get(key);
    if (!client) {
      const profileId = this.profileId ?? '';
      client = loadDeploymentsCore().createDeploymentClient({ url: deployment.url, apiKey: () => this.keyOf(profileId, deployment.taskId), logger: this.services.logger, maxRetries: this.services.config.maxRetries });
      this.clients.set(key, client);
    }
    return client;
  }

  // ---- keys and idle settings ------------------------------------------------------------------

  private secretName(profileId: string, taskId: number): string {
    return `${StateKeys.deploymentKeyPrefix}/${profileId}/${taskId}`;
  }

  keyOf(profileId: string, taskId: number): Promise<string | undefined> {
    return Promise.resolve(this.services.context.secrets.get(this.secretName(profileId, taskId)));
  }

  async setKey(taskId: number, key: string | undefined): Promise<void> {
    const profileId = this.services.profiles.active?.id;
    if (!profileId) return;
    if (key) await this.services.context.secrets.store(this.secretName(profileId, taskId), key);
    else await this.services.context.secrets.delete(this.secretName(profileId, taskId));
  }

  idleMinutes(taskId: number): number | undefined {
    const profileId = this.services.profiles.active?.id;
    const all = this.services.state.get('deploymentIdlePause');
    const minutes = profileId ? all[profileId]?.[String(taskId)] : undefined;
    return typeof minutes === 'number' && minutes > 0 ? minutes : undefined;
  }

  async setIdleMinutes(taskId: number, minutes: number | undefined): Promise<void> {
    const profileId = this.services.profiles.active?.id;
    if (!profileId) return;
    const all = { ...this.services.state.get('deploymentIdlePause') };
    const forProfile = { ...(all[profileId] ?? {}) };
    if (minutes === undefined) delete forProfile[String(taskId)];
    else forProfile[String(taskId)] = minutes;
    all[profileId] = forProfile;
    await this.services.state.update('deploymentIdlePause', all);
    this.idle.watch(taskId, this.now());
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  // ---- internals ---------------------------------------------------------------------------------

  private pricesNow = new Map<number, number | undefined>();

  private newDiscovery(): DeploymentDiscovery {
    return new DeploymentDiscovery({
      probe: (url, taskId, signal) => loadDeploymentsCore().probeDeployment(url, () => this.keyOf(this.profileId ?? '', taskId), signal),
      priceOf: (task) => this.pricesNow.get(task.task_id),
      now: () => this.now(),
    });
  }

  /** A profile switch starts from nothing: another account's deployments are not this one's. */
  private followProfile(): void {
    const active = this.services.profiles.active?.id;
    if (active === this.profileId) return;
    this.profileId = active;
    this.discovery = this.newDiscovery();
    this.clients.clear();
    this.changed.fire();
  }

  private fingerprint(): string {
    return JSON.stringify(this.discovery.list().map((d) => [d.taskId, d.state, d.url, d.nodes, d.pointsPerSecond, d.models.map((m) => m.id)]));
  }
}
