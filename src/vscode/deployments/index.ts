// The deployments area (docs/deployments.md): a user's own model on a rented GPU — Deploy a Model…,
// readiness, discovery, the models in Compute Chat's and VS Code's pickers, idle pause and the cost line.
// Wired from the composition root; returns what the in-host tests use.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import type { DeployPhase, FollowResult } from '../../core/deployments/readiness';
import type { AiApi } from '../ai/index';
import type { ChatApi } from '../chat/index';
import { registerCommandTable } from '../commands/commandTable';
import type { ComputeApi } from '../views/index';
import type { SpendApi } from '../spend/index';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { DEPLOYMENT_COMMANDS } from './commands';
import { DeploymentPolling } from './deploymentPolling';
import { DeploymentRegistry } from './deploymentRegistry';
import { createDeployment, estimateFor, fitsFor, followWithProgress, preselectReady, rememberReady, type DeployContext, type DeployRequest } from './deployModel';
import { IdlePause } from './idlePause';

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

export function registerDeployments(services: ExtensionServices, compute: ComputeApi, chat: ChatApi, money: SpendApi, chatModels: AiApi['chatModels'], state: RemoteState): DeploymentsApi {
  const registry = new DeploymentRegistry(services, (task) => money.priceOfTask(task));
  const polling = new DeploymentPolling(services, registry, () => money.refreshTasks(), state);
  const context: DeployContext = { services, compute, registry, polling, chat };
  // Recover from the idle-pause notice loads the model again: followed until it answers, as a new deploy.
  const idlePause = new IdlePause(
    services,
    registry,
    compute,
    (deployment) => followWithProgress(context, deployment.taskId, deployment.models[0]?.id ?? deployment.taskName, deployment.pointsPerSecond),
    (taskId) => {
      const profile = services.profiles.active;
      return profile ? money.activity.of(profile.id, taskId) : [];
    },
  );

  chat.useModelRoutes(registry);
  chatModels.useDeployments(registry);
  const disposables: vscode.Disposable[] = [
    registry,
    idlePause,
    registry.onDidChange(() => chat.modelRoutesChanged()),
    money.onDidPollTasks((tasks) => polling.onTasks(tasks)),
    ...registerCommandTable(DEPLOYMENT_COMMANDS, context, services.reportError),
  ];
  services.context.subscriptions.push(...disposables);

  return {
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
}
