// The deployments area (docs/deployments.md): a user's own model on a rented GPU — Deploy a Model…,
// readiness, discovery, the models in Compute Chat's and VS Code's pickers, idle pause and the cost line.
// Wired from the composition root by constructor (ports.ts); returns what the in-host tests use.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import type { TaskSummary } from '../../core/compute/api';
import type { DeployPhase, FollowResult } from '../../core/deployments/readiness';
import { registerCommandTable } from '../commands/commandTable';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { DEPLOYMENT_COMMANDS } from './commands';
import { DeploymentPolling } from './deploymentPolling';
import { DeploymentRegistry } from './deploymentRegistry';
import { createDeployment, estimateFor, fitsFor, followWithProgress, preselectReady, rememberReady, type DeployContext, type DeployRequest } from './deployModel';
import { DeployStarts } from './deployStarts';
import { IdlePause } from './idlePause';
import type { DeploymentPorts, PriceOfTask } from './ports';
import type { NotificationCenter } from '../ui/notificationCenter';

export interface DeploymentsApi {
  readonly registry: DeploymentRegistry;
  readonly idlePause: IdlePause;
  /** Deploy a Model… without the wizard: the best-ranked GPU in stock unless `fit` is given. */
  deploy(request: DeployRequest): Promise<{ taskId: number; pointsPerSecond: number | undefined }>;
  /** Follows a deployment until it answers (or stops), remembering it when ready; phases in order. */
  waitReady(taskId: number, delays?: { firstDelayMs: number; maxDelayMs: number }): Promise<{ result: FollowResult; phases: DeployPhase[] }>;
  /** Lists tasks and discovers deployments now. */
  refreshNow(): Promise<void>;
}

/**
 * The active profile's deployments as models (the registry): built before the chat and VS Code's model
 * provider, which are given it by constructor to list and route them; the area below keeps it current.
 */
export function createDeployedModels(services: ExtensionServices, priceOfTask: PriceOfTask, own: vscode.Disposable[] = []): RegisteredArea<DeploymentRegistry> {
  const registry = new DeploymentRegistry(services, priceOfTask);
  own.push(registry);
  return { api: registry, disposables: own };
}

/** Discovery from the store's polls of the active profile, Deploy a Model…, idle pause and their commands. */
/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerDeployments(services: ExtensionServices, state: RemoteState, registry: DeploymentRegistry, ports: DeploymentPorts, center: NotificationCenter, own: vscode.Disposable[] = []): RegisteredArea<DeploymentsApi> {
  // The store polls the active profile now and hands back its tasks (nothing else lists tasks).
  const refreshTasks = async (): Promise<readonly TaskSummary[]> => {
    await state.refresh();
    return state.tasks?.items ?? [];
  };
  const polling = new DeploymentPolling(services, registry, refreshTasks, state);
  const context: DeployContext = { services, compute: ports.tasks, registry, polling, chat: ports.chat, starts: new DeployStarts(ports.startTook) };
  // Recover from the idle-pause notice loads the model again: followed until it answers, as a new deploy.
  const idlePause = new IdlePause(
    services,
    registry,
    ports.tasks,
    (deployment) => followWithProgress(context, deployment.taskId, deployment.models[0]?.id ?? deployment.taskName, deployment.pointsPerSecond),
    ports.activityOf,
    center,
  );
  own.push(idlePause);
  // Discovery runs on the active profile's task lists the store already fetches: no poll of its own.
  own.push(
    state.followTasks((change, profile) => {
      if (profile.id === services.profiles.active?.id) polling.onTasks(change.items);
    }),
  );
  own.push(...registerCommandTable(DEPLOYMENT_COMMANDS, context, services.reportError));

  const api: DeploymentsApi = {
    registry,
    idlePause,
    deploy: async (request) => {
      const estimate = estimateFor(request);
      if (!estimate) throw new Refusal(vscode.l10n.t('No size known for {0}: pass paramsB.', request.model));
      const fit = request.fit ?? (await fitsFor(context, estimate)).find((candidate) => candidate.available);
      if (!fit) throw new Refusal(vscode.l10n.t('No GPU in stock fits {0}.', request.model));
      const taskId = await createDeployment(context, request, fit);
      return { taskId, pointsPerSecond: fit.pointsPerSecond ?? undefined };
    },
    waitReady: async (taskId, delays) => {
      const phases: DeployPhase[] = [];
      const result = await polling.follow(taskId, (phase) => phases.push(phase), undefined, delays);
      // As Deploy a Model… does: remembered when it answers, listed with its price, preselected in the chat.
      if (await rememberReady(context, taskId, result, undefined)) {
        await polling.refreshNow();
        preselectReady(context, taskId, result.observation.models);
      }
      return { result, phases };
    },
    refreshNow: () => polling.refreshNow(),
  };
  return { api, disposables: own };
}
