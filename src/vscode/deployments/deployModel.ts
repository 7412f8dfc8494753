// Deploy a Model… (docs/deployments.md): a model from the curated list or typed, the context and precision,
// the memory estimate, the GPUs that fit ranked by price and stock, idle pause (opt-in), the cost per hour
// confirmed before anything is created — then the task is created through the same path as any task
// (the Tasks view's createTask) and followed until its URL answers, with a progress notification.

import * as vscode from 'vscode';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import type { Device } from '../../core/compute/api';
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import { CURATED_MODELS, findCuratedModel, validateModelId } from '../../core/deployments/catalog';
import { estimateMemory, formatGiB, shapeFor, type MemoryEstimate, type Precision } from '../../core/deployments/estimate';
import { rankFits, type GpuFit } from '../../core/deployments/ranking';
import type { DeployPhase, FollowResult } from '../../core/deployments/readiness';
import { VLLM_IMAGE, VLLM_PORT, vllmCommand } from '../../core/deployments/vllmArgs';
import { Commands } from '../commandIds';
import { deviceLabel } from '../ui/format';
import { resourceServiceOf, taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { abortSignalFor } from '../ui/cancellation';
import type { DeploymentPolling } from './deploymentPolling';
import { deploymentModelId, type DeploymentRegistry } from './deploymentRegistry';
import type { DeploymentChat, DeploymentTasks } from './ports';
import { counted } from '../ui/counts';
import type { DeployStarts } from './deployStarts';

export interface DeployRequest {
  model: string;
  contextTokens: number;
  precision: Precision;
  /** Billions of parameters, for a typed id whose name gives no size. */
  paramsB?: number;
  /** Where to run it; default: the best-ranked available fit. */
  fit?: GpuFit;
  /** Pause after this many idle minutes; undefined leaves idle pause off. */
  idleMinutes?: number;
  taskName?: string;
}

export interface DeployContext {
  services: ExtensionServices;
  compute: DeploymentTasks;
  registry: DeploymentRegistry;
  polling: DeploymentPolling;
  chat: DeploymentChat;
  /** How long each deploy took until its model answered, told once it is ready (the preheat offer). */
  starts: DeployStarts;
}

const IDLE_CHOICES = [15, 30, 60] as const;

export function estimateFor(request: Pick<DeployRequest, 'model' | 'contextTokens' | 'precision' | 'paramsB'>): MemoryEstimate | undefined {
  const shape = shapeFor(request.model, request.paramsB);
  return shape ? estimateMemory(shape, request.precision, request.contextTokens) : undefined;
}

/** The GPUs that fit, ranked, from a fresh resource search (marks must be fresh for a create). */
export async function fitsFor(context: DeployContext, estimate: MemoryEstimate, signal?: AbortSignal): Promise<GpuFit[]> {
  const page = await resourceServiceOf(context.services).gpuDeployments(signal);
  return rankFits(page.results as Device[], estimate.totalBytes);
}

function defaultTaskName(model: string): string {
  const name = (model.split('/').pop() ?? model).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  return `deploy-${name}`.slice(0, 64);
}

/** Creates the deployment task (no UI): the same create path as the wizard. Resolves with the task id. */
export async function createDeployment(context: DeployContext, request: DeployRequest, fit: GpuFit, signal?: AbortSignal): Promise<number> {
  const command = vllmCommand({ model: request.model, servedModelName: request.model, contextTokens: request.contextTokens, tensorParallel: fit.tensorParallel, precision: request.precision });
  const taskId = await context.compute.createTask(
    { name: request.taskName ?? defaultTaskName(request.model), region: fit.region, image: VLLM_IMAGE, ports: [VLLM_PORT], points: 1, startCommand: command },
    signal,
  );
  context.starts.began(taskId, { what: request.model, image: VLLM_IMAGE, region: fit.region.region });
  if (request.idleMinutes !== undefined) await context.registry.setIdleMinutes(taskId, request.idleMinutes);
  return taskId;
}

export function phaseText(phase: DeployPhase): string {
  switch (phase) {
    case 'waiting':
      return vscode.l10n.t('Waiting for a GPU…');
    case 'pulling':
      return vscode.l10n.t('Pulling the vLLM image…');
    case 'loading':
      return vscode.l10n.t('Loading weights — a model can take several minutes…');
    case 'ready':
      return vscode.l10n.t('Ready');
    default:
      return vscode.l10n.t('The task was paused or ended before the model was ready.');
  }
}

/** Follows a created deployment with a progress notification; remembers it once it answers. */
/**
 * A followed deployment that answered is remembered at once (discovery may have probed it while the model
 * was still loading and would not look again for minutes). False when it did not become ready.
 */
export async function rememberReady(context: DeployContext, taskId: number, result: FollowResult, pointsPerSecond: number | undefined): Promise<boolean> {
  if (result.phase !== 'ready' || !result.observation.url) return false;
  const detail = await taskServiceOf(context.services).detail(taskId);
  context.registry.remember({
    taskId,
    taskName: detail.task_name,
    url: result.observation.url,
    models: [...(result.observation.models ?? [])],
    state: 'ready',
    pointsPerSecond,
    nodes: Math.max(1, detail.runing_points || detail.points),
  });
  context.starts.ready(taskId);
  return true;
}

export async function followWithProgress(context: DeployContext, taskId: number, model: string, pointsPerSecond: number | undefined): Promise<boolean> {
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Deploying {0}', model), cancellable: true },
    async (progress, token) => {
      progress.report({ message: phaseText('waiting') });
      return context.polling.follow(taskId, (phase) => progress.report({ message: phaseText(phase) }), abortSignalFor(token)).catch((error: unknown) => {
        if (token.isCancellationRequested) return undefined;
        throw error;
      });
    },
  );
  if (!result) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stopped following {0}. The task keeps running (and billing); it appears in the chat once it answers.', model));
    return false;
  }
  if (!(await rememberReady(context, taskId, result, pointsPerSecond))) {
    void vscode.window.showWarningMessage(phaseText('stopped'));
    return false;
  }
  preselectReady(context, taskId, result.observation.models);
  void vscode.window
    .showInformationMessage(vscode.l10n.t('{0} is ready. Pick it in Compute Chat or in VS Code\'s model picker.', model), vscode.l10n.t('Open Chat'))
    .then((picked) => (picked ? vscode.commands.executeCommand(Commands.chatOpen) : undefined));
  return true;
}

/** The ready deployment's (first) model becomes the chat's choice: preselected, named "model · task". */
export function preselectReady(context: DeployContext, taskId: number, served?: readonly { id: string }[]): void {
  const model = (served ?? context.registry.get(taskId)?.models)?.[0]?.id;
  if (model !== undefined) context.chat.preferModel(deploymentModelId(taskId, model));
}

// ---- the wizard ----------------------------------------------------------------------------------

type ModelItem = vscode.QuickPickItem & { model?: string; typed?: true };

/** Model, context, precision, GPU, idle pause, review: the one wizard style (ui/multiStepInput), "n/6" and Back. */
const STEPS = 6;

/** The first step: its title, placeholder and rows (also read by the in-host display-language check, test/integration/l10n). */
export function modelStep(): { title: string; placeHolder: string; items: ModelItem[] } {
  return {
    title: vscode.l10n.t('Deploy a Model: model'),
    placeHolder: vscode.l10n.t('An open chat model served by vLLM on a GPU you rent'),
    items: [
      ...CURATED_MODELS.map((model): ModelItem => ({ label: model.id, description: vscode.l10n.t('{0}B parameters · {1}K context', model.paramsB, Math.round(model.defaultContext / 1024)), model: model.id })),
      { label: vscode.l10n.t('$(edit) Type a Hugging Face model id…'), typed: true },
    ],
  };
}

/** What the wizard gathered; Back keeps the answers, a step shown again starts from them. */
interface DeployAnswers {
  model?: string;
  typedModel?: string;
  paramsB?: number;
  contextTokens?: number;
  precision?: Precision;
  fit?: GpuFit;
  idle?: number;
  go: boolean;
}

function idleText(idle: number | undefined): string {
  return idle === undefined ? vscode.l10n.t('Idle pause: off.') : vscode.l10n.t('Idle pause: after {0} without a chat request.', counted(idle, 'minute'));
}

/** The wizard's steps; each asks one question and returns the next. */
function deploySteps(context: DeployContext, profile: { label: string; environment: string }, answers: DeployAnswers): Step {
  const base = (): Pick<DeployRequest, 'model' | 'contextTokens' | 'paramsB'> => ({ model: answers.model ?? '', contextTokens: answers.contextTokens ?? 0, ...(answers.paramsB !== undefined ? { paramsB: answers.paramsB } : {}) });

  const askModel: Step = async (input) => {
    const first = modelStep();
    const current = first.items.find((item) => item.model !== undefined && item.model === answers.model);
    const picked = await input.showQuickPick({ title: first.title, step: 1, totalSteps: STEPS, items: first.items, placeholder: first.placeHolder, ...(current ? { activeItem: current } : {}) });
    if (!picked.model) return askTypedModel;
    answers.model = picked.model;
    delete answers.paramsB;
    return askContext;
  };
  const askTypedModel: Step = async (input) => {
    const typed = await input.showInputBox({
      title: vscode.l10n.t('Deploy a Model: model'),
      step: 1,
      totalSteps: STEPS,
      value: answers.typedModel ?? '',
      prompt: vscode.l10n.t('Hugging Face model id (owner/name)'),
      placeholder: vscode.l10n.t('e.g. Qwen/Qwen2.5-14B-Instruct'),
      validate: (value) => validateModelId(value) ?? undefined,
    });
    answers.typedModel = typed.trim();
    answers.model = answers.typedModel;
    delete answers.paramsB;
    return shapeFor(answers.model) ? askContext : askSize;
  };
  const askSize: Step = async (input) => {
    const size = await input.showInputBox({
      title: vscode.l10n.t('Deploy a Model: model'),
      step: 1,
      totalSteps: STEPS,
      value: answers.paramsB !== undefined ? String(answers.paramsB) : '',
      prompt: vscode.l10n.t('Its name gives no size: how many billion parameters does {0} have?', answers.model ?? ''),
      validate: (value) => (/^\d{1,4}(\.\d{1,2})?$/.test(value.trim()) && Number(value) > 0 ? undefined : vscode.l10n.t('A number of billions, e.g. 7 or 1.5.')),
    });
    answers.paramsB = Number(size);
    return askContext;
  };
  const askContext: Step = async (input) => {
    const curated = findCuratedModel(answers.model ?? '');
    const max = curated?.maxContext ?? 131_072;
    const value = await input.showInputBox({
      title: vscode.l10n.t('Deploy a Model: context length'),
      step: 2,
      totalSteps: STEPS,
      prompt: vscode.l10n.t('Longest conversation in tokens (--max-model-len, up to {0}); more context needs more GPU memory.', max),
      value: String(answers.contextTokens ?? curated?.defaultContext ?? 8192),
      validate: (text) => (/^\d+$/.test(text.trim()) && Number(text) >= 512 && Number(text) <= max ? undefined : vscode.l10n.t('A whole number of tokens from 512 to {0}.', max)),
    });
    answers.contextTokens = Number(value.trim());
    return askPrecision;
  };
  const askPrecision: Step = async (input) => {
    const items = (['bf16', 'fp8', 'int4'] as const).map((precision) => {
      const estimate = estimateFor({ ...base(), precision });
      return {
        label: precision === 'bf16' ? vscode.l10n.t('BF16 (the model as published)') : precision === 'fp8' ? vscode.l10n.t('FP8 (quantized by vLLM, about half the weights)') : vscode.l10n.t('INT4 (only for AWQ / GPTQ model ids)'),
        description: estimate ? vscode.l10n.t('needs ≈ {0} of GPU memory', formatGiB(estimate.totalBytes)) : '',
        precision,
      };
    });
    const current = items.find((item) => item.precision === answers.precision);
    const picked = await input.showQuickPick({ title: vscode.l10n.t('Deploy a Model: precision'), step: 3, totalSteps: STEPS, items, placeholder: vscode.l10n.t('Weights + KV cache for the context + overhead'), ...(current ? { activeItem: current } : {}) });
    answers.precision = picked.precision;
    return askGpu;
  };
  const askGpu: Step = async (input) => {
    const estimate = estimateFor({ ...base(), precision: answers.precision ?? 'bf16' });
    if (!estimate) return undefined;
    const fits = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Searching resources…') }, () => fitsFor(context, estimate));
    if (!fits.some((fit) => fit.available)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No GPU in stock fits {0} (≈ {1}). Try FP8 or INT4, or a shorter context.', answers.model ?? '', formatGiB(estimate.totalBytes)));
      return undefined;
    }
    const items = fits.map((fit) => {
      const rate = fit.pointsPerSecond !== null ? formatYuanPerHour(pointsPerSecondToYuanPerHour(fit.pointsPerSecond)) : vscode.l10n.t('not sold');
      const stock = fit.region.inventory > 0 ? vscode.l10n.t('{0} in stock', fit.region.inventory) : vscode.l10n.t('sold out');
      return {
        label: `${fit.available ? '$(check)' : '$(warning)'} ${deviceLabel(fit.device)}`,
        description: `${fit.region.region_name} · ${rate} · ${stock}`,
        detail: fit.tensorParallel > 1
          ? vscode.l10n.t('{0} usable for ≈ {1}, split across {2} (tensor parallel)', formatGiB(fit.usableBytes), formatGiB(estimate.totalBytes), counted(fit.tensorParallel, 'gpu'))
          : vscode.l10n.t('{0} usable for ≈ {1}', formatGiB(fit.usableBytes), formatGiB(estimate.totalBytes)),
        fit,
      };
    });
    // A sold-out or unsold row answers nothing: the step stays open for one in stock.
    const picked = await input.showQuickPick({
      title: vscode.l10n.t('Deploy a Model: GPU'),
      step: 4,
      totalSteps: STEPS,
      items,
      placeholder: vscode.l10n.t('GPUs that fit, cheapest in stock first'),
      only: (item) => item.fit.available && item.fit.pointsPerSecond !== null,
    });
    answers.fit = picked.fit;
    return askIdle;
  };
  const askIdle: Step = async (input) => {
    const off = { label: vscode.l10n.t('Keep running until I pause it'), minutes: undefined as number | undefined };
    const items = [off, ...IDLE_CHOICES.map((minutes) => ({ label: vscode.l10n.t('Pause after {0} without a chat request', counted(minutes, 'minute')), minutes }))];
    const picked = await input.showQuickPick({ title: vscode.l10n.t('Deploy a Model: idle pause'), step: 5, totalSteps: STEPS, items, placeholder: vscode.l10n.t('Pausing stops the billing; Recover brings it back (it loads again)') });
    if (picked.minutes === undefined) delete answers.idle;
    else answers.idle = picked.minutes;
    return review;
  };
  const review: Step = async (input) => {
    const fit = answers.fit as GpuFit;
    const estimate = estimateFor({ ...base(), precision: answers.precision ?? 'bf16' });
    const rate = formatYuanPerHour(pointsPerSecondToYuanPerHour(fit.pointsPerSecond ?? 0));
    const where = `${deviceLabel(fit.device)} · ${fit.region.region_name}`;
    const model = answers.model ?? '';
    answers.go = await input.showReview({
      title:
        profile.environment === 'prod'
          ? vscode.l10n.t('Deploy {0} on {1} for {2} on PRODUCTION profile "{3}"?', model, where, rate, profile.label)
          : vscode.l10n.t('Deploy {0} on {1} for {2} on profile "{3}"?', model, where, rate, profile.label),
      step: 6,
      totalSteps: STEPS,
      go: {
        label: vscode.l10n.t('Deploy'),
        detail: vscode.l10n.t(
          'Billed per second while the task runs, also while it pulls the image and loads the weights (a model can take several minutes). Needs ≈ {0} of GPU memory. {1}',
          formatGiB(estimate?.totalBytes ?? 0),
          idleText(answers.idle),
        ),
      },
      placeholder: vscode.l10n.t('Review: pick Deploy, or Cancel'),
    });
  };
  return askModel;
}

export async function runDeployWizard(context: DeployContext): Promise<number | undefined> {
  const profile = await context.services.requireProfile();
  if (!profile) return undefined;
  const answers: DeployAnswers = { go: false };
  const finished = await MultiStepInput.run(deploySteps(context, profile, answers));
  const { model, contextTokens, precision, fit } = answers;
  if (!finished || !answers.go || model === undefined || contextTokens === undefined || !precision || !fit || fit.pointsPerSecond === null) return undefined;
  const base = { model, contextTokens, ...(answers.paramsB !== undefined ? { paramsB: answers.paramsB } : {}) };
  const idle = answers.idle;

  const request: DeployRequest = { ...base, precision, fit, ...(idle !== undefined ? { idleMinutes: idle } : {}) };
  const taskId = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the deployment of {0}…', model), cancellable: true },
    (_progress, token) => createDeployment(context, request, fit, abortSignalFor(token)),
  );
  context.compute.revealTask(taskId);
  void followWithProgress(context, taskId, model, fit.pointsPerSecond).catch((error: unknown) => context.services.reportError(error, vscode.l10n.t('Follow the deployment of {0}', model)));
  return taskId;
}
