// "Create Task…": a multi-step QuickPick/InputBox wizard with Back and "Step n/N" — name, resource +
// region (fresh search), image, ports, node count, optional env and start command, optional
// encryption — then a review step that can jump back to any field, then the create with progress.
import { Commands, StateKeys } from '../commandIds';
import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { abortSignalFor } from '../ui/cancellation';
import { isAbort } from '../../core/errors';
import type { ExtensionServices, Profile } from '../services';
import type { RemoteState } from '../state/index';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { deviceLabel, effectivePrice, environmentName, formatRegionPrice, formatYuan, isSoldOut, yuanPerHour } from '../ui/format';
import type { ResourceFilterStore } from '../resources/index';
import { flattenRegions, regionPickItem, searchDevices, type RegionChoice, type RegionPickItem } from '../resources/index';
import type { TaskActions } from '../tasks/taskActions';
import type { NasVolume } from '../../core/nas/operations';
import { DEFAULT_TARGET_DIR, normalTargetDir, sameRegion, targetDirProblem } from '../../core/nas/mounts';
import { loadVolumes, mountChoices, mountPlaceholder, type MountItem } from '../choices/mountChoices';
import { targetDirText } from '../tasks/targetDirText';
import { imageTemplates, nodesNote, preselectRegion, type ImageTemplate } from '../tasks/createDefaults';
import { counted } from '../ui/counts';
import { JupyterTokens } from '../jupyterTokens';
import {
  DEFAULT_IMAGE,
  DEFAULT_PORTS,
  MAX_POINTS,
  parseEnv,
  parsePoints,
  parsePorts,
  validateImage,
  validateTaskName,
  type TaskCreateInput,
} from '../tasks/taskInput';

/** Image and ports of the last create, offered as defaults (env is never kept: it may hold secrets). */
const LAST_CREATE_KEY = StateKeys.lastCreateTask;

export interface CreateTaskWizardDeps {
  services: ExtensionServices;
  actions: TaskActions;
  filter: ResourceFilterStore;
  /** Shows the new task in the Tasks view. */
  revealTask: (taskId: number) => void;
  /** The remote-state store: the mount step's volumes come from it. */
  state: RemoteState;
}

/** Which region to preselect (launched from a region row or the search command). */
export interface RegionHint {
  deviceName: string;
  region: string;
}

interface ReviewItem extends vscode.QuickPickItem {
  /** The step to go back to, 'create', or 'cancel' (highlighted first: Enter never spends). */
  target: Step | 'create' | 'cancel' | undefined;
}

interface WizardState {
  name: string;
  choice: RegionChoice | undefined;
  image: string;
  ports: string;
  points: string;
  env: string;
  startCommand: string;
  encrypt: boolean;
  /** The NAS volume to mount (none by default) and where in the container. */
  volume: NasVolume | undefined;
  targetDir: string;
  /** Set once the review was reached: an edited field returns straight to the review. */
  reviewing: boolean;
  /** Cancel was picked at the review. */
  cancelled?: boolean;
}

/** Runs the wizard; returns the new task id, or undefined when the user backed out or it failed. */
export async function runCreateTaskWizard(deps: CreateTaskWizardDeps, hint?: RegionHint): Promise<number | undefined> {
  const { services } = deps;
  const profile = await services.requireProfile();
  if (!profile) return undefined;

  const memento = services.context.workspaceState;
  const last = memento.get<{ image?: unknown; ports?: unknown }>(LAST_CREATE_KEY);
  const state: WizardState = {
    name: defaultTaskName(),
    choice: undefined,
    image: typeof last?.image === 'string' ? last.image : DEFAULT_IMAGE,
    ports: typeof last?.ports === 'string' ? last.ports : DEFAULT_PORTS,
    points: '1',
    env: '',
    startCommand: '',
    encrypt: false,
    volume: undefined,
    targetDir: DEFAULT_TARGET_DIR,
    reviewing: false,
  };
  const canEncrypt = profile.mode === 'rsa' && (await services.profiles.getSecret(profile.id, 'platformPublicKey')) !== undefined;

  // Marks must be fresh for a create, so the wizard searches again; it starts while the user types the name.
  const loading = new AbortController();
  const regions = searchDevices(services, deps.filter, loading.signal).then(flattenRegions);
  regions.catch(() => undefined); // awaited (and reported) by the region step; avoids an unhandled rejection if never reached
  // Active NAS volumes for the optional mount step, from the volume store; a failed read only leaves the
  // step without volumes.
  const volumes = loadVolumes(deps.state);

  const title = profile.environment === 'prod' ? vscode.l10n.t('Create Task on "{0}" (PRODUCTION)', profile.label) : vscode.l10n.t('Create Task on "{0}"', profile.label);
  const totalSteps = canEncrypt ? 10 : 9;
  const at = (step: number) => ({ title, step, totalSteps });
  const then = (next: Step): Step => (state.reviewing ? review : next);

  const askName: Step = async (input) => {
    state.name = await input.showInputBox({ ...at(1), value: state.name, prompt: vscode.l10n.t('Task name'), validate: validateTaskName });
    return then(askRegion);
  };
  const askRegion: Step = async (input) => {
    const choices = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Searching resources…') }, () => regions);
    if (choices.length === 0) throw new Refusal(vscode.l10n.t('The platform lists no resources for the current filter (Compute: Filter Resources…).'));
    const items = choices.map(regionPickItem);
    const wanted = state.choice ? { deviceName: state.choice.device.device_name, region: state.choice.region.region } : hint;
    // The region asked for when it is in stock, else the cheapest in stock: never a sold-out one.
    const preselected = preselectRegion(choices, wanted);
    const active = preselected ? items.find((item) => item.choice === preselected) : undefined;
    const picked = await input.showQuickPick<RegionPickItem>({
      ...at(2),
      items,
      placeholder: vscode.l10n.t('Resource and region (price per hour, inventory)'),
      ...(active ? { activeItem: active } : {}),
    });
    state.choice = picked.choice;
    // A volume mounts only in its own region: a new region drops a volume from another one.
    if (state.volume && !sameRegion(state.volume, picked.choice.region.region_name)) state.volume = undefined;
    return then(askImage);
  };
  const templates = imageTemplates(vscode.l10n);
  const askImage: Step = async (input) => {
    type ImageItem = vscode.QuickPickItem & { template?: ImageTemplate; custom?: true };
    const custom: ImageItem = { label: vscode.l10n.t('$(edit) Other image…'), description: state.image, custom: true };
    const items: ImageItem[] = [...templates.map((template) => ({ label: vscode.l10n.t('$(package) Template: {0}', template.label), description: template.image, detail: template.description, template })), custom];
    const current = items.find((item) => item.template?.image === state.image) ?? (state.image === DEFAULT_IMAGE ? items[0] : custom);
    const picked = await input.showQuickPick<ImageItem>({ ...at(3), items, placeholder: vscode.l10n.t('Image: start from a template or enter your own'), ...(current ? { activeItem: current } : {}) });
    if (picked.template) {
      const previous = templates.find((template) => template.image === state.image);
      state.image = picked.template.image;
      // Ports and start command follow the template unless the user already changed them.
      if (!previous || state.ports === previous.ports || state.ports === DEFAULT_PORTS) state.ports = picked.template.ports;
      if (!previous || state.startCommand === previous.startCommand || state.startCommand === '') state.startCommand = picked.template.startCommand;
      return then(askPorts);
    }
    return askCustomImage;
  };
  const askCustomImage: Step = async (input) => {
    state.image = (await input.showInputBox({ ...at(3), value: state.image, prompt: vscode.l10n.t('Container image (registry/repository:tag)'), validate: validateImage })).trim();
    return then(askPorts);
  };
  const askPorts: Step = async (input) => {
    state.ports = await input.showInputBox({
      ...at(4),
      value: state.ports,
      prompt: vscode.l10n.t('Ports to expose, comma-separated (each gets a public URL)'),
      placeholder: vscode.l10n.t('e.g. {0}', '8080, 80'),
      validate: (value) => errorOf(parsePorts(value)),
    });
    return then(askPoints);
  };
  const askPoints: Step = async (input) => {
    const inventory = state.choice?.region.inventory ?? 0;
    state.points = await input.showInputBox({
      ...at(5),
      value: state.points,
      prompt: vscode.l10n.t('Number of nodes (1–{0}); {1} in {2}', MAX_POINTS, inventory > 0 ? vscode.l10n.t('{0} available', inventory) : vscode.l10n.t('sold out'), state.choice?.region.region_name ?? vscode.l10n.t('this region')),
      validate: (value) => errorOf(parsePoints(value)),
      note: (value) => {
        const parsed = parsePoints(value);
        return 'points' in parsed && state.choice ? nodesNote(parsed.points, state.choice.region, vscode.l10n) : undefined;
      },
    });
    return then(askEnv);
  };
  const askEnv: Step = async (input) => {
    state.env = await input.showInputBox({
      ...at(6),
      value: state.env,
      prompt: vscode.l10n.t('Environment variables (optional): KEY=VALUE pairs separated by ";"'),
      placeholder: vscode.l10n.t('e.g. MODEL=qwen3-32b; LOG_LEVEL=info — leave empty for none'),
      validate: (value) => errorOf(parseEnv(value)),
    });
    return then(askStartCommand);
  };
  const askStartCommand: Step = async (input) => {
    state.startCommand = await input.showInputBox({
      ...at(7),
      value: state.startCommand,
      prompt: vscode.l10n.t('Start command (optional; empty keeps the image\'s entrypoint)'),
      placeholder: vscode.l10n.t('e.g. python serve.py --port 8080'),
    });
    return then(askMount);
  };
  const askMount: Step = async (input) => {
    const regionName = state.choice?.region.region_name ?? '';
    const loaded = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading NAS volumes…') }, () => volumes);
    const { none, items } = mountChoices(loaded, regionName, vscode.l10n.t('The NAS volumes could not be read; the task is created without a mount.'));
    const current = items.find((item) => item.volume?.storage_id === state.volume?.storage_id) ?? none;
    const picked = await input.showQuickPick<MountItem>({ ...at(8), items, placeholder: mountPlaceholder(regionName), activeItem: current });
    state.volume = picked.volume;
    return picked.volume ? askTargetDir : then(canEncrypt ? askEncrypt : review);
  };
  const askTargetDir: Step = async (input) => {
    state.targetDir = (
      await input.showInputBox({
        ...at(8),
        value: state.targetDir,
        prompt: vscode.l10n.t('Where "{0}" is mounted in the container (an absolute path)', state.volume?.name ?? ''),
        validate: (value) => targetDirText(targetDirProblem(value.trim())),
      })
    ).trim();
    return then(canEncrypt ? askEncrypt : review);
  };
  const askEncrypt: Step = async (input) => {
    const plain = { label: vscode.l10n.t('$(unlock) Send the body signed, not encrypted'), encrypt: false };
    const sealed = { label: vscode.l10n.t('$(lock) Encrypt the body with the platform public key'), encrypt: true, detail: vscode.l10n.t('RSA mode: the platform decrypts it; the signature covers the ciphertext.') };
    const picked = await input.showQuickPick({ ...at(9), items: [plain, sealed], placeholder: vscode.l10n.t('Request body'), activeItem: state.encrypt ? sealed : plain });
    state.encrypt = picked.encrypt;
    return review;
  };
  const review: Step = async (input) => {
    state.reviewing = true;
    const items = reviewItems(state, profile, canEncrypt, { askName, askRegion, askImage, askPorts, askPoints, askEnv, askStartCommand, askMount, askEncrypt });
    const picked = await input.showQuickPick<ReviewItem>({ ...at(totalSteps), items, placeholder: vscode.l10n.t('Review: pick Create, or a field to change it'), activeItem: items[0] });
    if (picked.target === 'cancel') state.cancelled = true;
    if (picked.target === 'create' || picked.target === 'cancel') return undefined;
    return picked.target ?? review;
  };

  let finished: boolean;
  try {
    finished = await MultiStepInput.run(askName);
  } catch (error) {
    services.reportError(error, vscode.l10n.t('Create task'));
    return undefined;
  } finally {
    loading.abort();
  }
  if (!finished || state.cancelled || !state.choice) return undefined;

  const input = toCreateInput(state, state.choice);
  await memento.update(LAST_CREATE_KEY, { image: input.image, ports: state.ports });
  // A Jupyter image gets a server token the extension makes and keeps (the user never types it).
  const jupyter = new JupyterTokens(services.context.secrets).forCreate(input.image, input.env ?? {});
  return createWithProgress(deps, jupyter ? { ...input, env: jupyter.env } : input, (taskId) => jupyter?.keep(profile.id, taskId));
}

async function createWithProgress(deps: CreateTaskWizardDeps, input: TaskCreateInput, created: (taskId: number) => Thenable<void> | undefined): Promise<number | undefined> {
  const { services } = deps;
  try {
    const taskId = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating task "{0}"…', input.name), cancellable: true },
      (_progress, token) => deps.actions.create(input, abortSignalFor(token)),
    );
    await created(taskId);
    deps.revealTask(taskId);
    const showDetail = vscode.l10n.t('Show Detail');
    const copyId = vscode.l10n.t('Copy ID');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Task "{0}" created (id {1}). It stays Pending until the platform schedules it.', input.name, taskId), showDetail, copyId)
      .then((choice) => {
        if (choice === showDetail) return vscode.commands.executeCommand(Commands.tasksDetail, taskId);
        if (choice === copyId) return vscode.env.clipboard.writeText(String(taskId));
        return undefined;
      });
    return taskId;
  } catch (error) {
    if (isAbort(error)) {
      // The request may have reached the platform before the abort: say so rather than guess.
      void vscode.window.showWarningMessage(vscode.l10n.t('Creating "{0}" was cancelled. If the platform received it, the task appears in Tasks after a refresh.', input.name));
      void deps.actions.refreshTasks();
      return undefined;
    }
    services.reportError(error, vscode.l10n.t('Create task "{0}"', input.name));
    return undefined;
  }
}

function toCreateInput(state: WizardState, choice: RegionChoice): TaskCreateInput {
  const ports = parsePorts(state.ports);
  const points = parsePoints(state.points);
  const env = parseEnv(state.env);
  // Every field was validated by its step; a failure here is a bug, not user input.
  // eslint-disable-next-line no-restricted-syntax -- a bug, not a refusal: the failure frame and Show Logs fit
  if ('error' in ports || 'error' in points || 'error' in env) throw new Error(vscode.l10n.t('Create Task: a field that passed its step no longer parses (a bug: please report it).'));
  return {
    name: state.name.trim(),
    region: choice.region,
    image: state.image,
    ports: ports.ports,
    points: points.points,
    env: env.env,
    startCommand: state.startCommand.trim(),
    encrypt: state.encrypt,
    ...(state.volume && sameRegion(state.volume, choice.region.region_name) ? { nasMounts: [{ storage_id: state.volume.storage_id, target_dir: normalTargetDir(state.targetDir) }] } : {}),
  };
}

interface FieldSteps {
  askName: Step;
  askRegion: Step;
  askImage: Step;
  askPorts: Step;
  askPoints: Step;
  askEnv: Step;
  askStartCommand: Step;
  askMount: Step;
  askEncrypt: Step;
}

function reviewItems(state: WizardState, profile: Profile, canEncrypt: boolean, steps: FieldSteps): ReviewItem[] {
  const choice = state.choice;
  const points = parsePoints(state.points);
  const nodes = 'points' in points ? points.points : 1;
  const price = choice ? effectivePrice(choice.region) : null;
  const env = parseEnv(state.env);
  const envKeys = 'env' in env ? Object.keys(env.env) : [];
  const items: ReviewItem[] = [
    { label: vscode.l10n.t('Cancel'), target: 'cancel' },
    {
      label: vscode.l10n.t('$(rocket) Create task "{0}"', state.name.trim()),
      description: vscode.l10n.t('on profile "{0}" ({1})', profile.label, environmentName(profile.environment)),
      detail: price !== null ? vscode.l10n.t('Estimated {0}/h for {1}, billed per second', formatYuan(yuanPerHour(price) * nodes), counted(nodes, 'node')) : undefined,
      target: 'create',
    },
    { label: vscode.l10n.t('Change'), kind: vscode.QuickPickItemKind.Separator, target: undefined },
    { label: vscode.l10n.t('$(tag) Name'), description: state.name.trim(), target: steps.askName },
    {
      label: vscode.l10n.t('$(server) Resource'),
      description: choice ? `${deviceLabel(choice.device)} · ${choice.region.region_name} · ${formatRegionPrice(choice.region)}` : '—',
      detail: choice && isSoldOut(choice.region) ? vscode.l10n.t('$(warning) Sold out: the task stays Pending until capacity frees up') : undefined,
      target: steps.askRegion,
    },
    { label: vscode.l10n.t('$(package) Image'), description: state.image, target: steps.askImage },
    { label: vscode.l10n.t('$(plug) Ports'), description: state.ports, target: steps.askPorts },
    {
      label: vscode.l10n.t('$(server-environment) Nodes'),
      description: String(nodes),
      ...(choice && nodes > choice.region.inventory ? { detail: vscode.l10n.t('$(warning) More nodes than in stock: {0}', nodesNote(nodes, choice.region, vscode.l10n)?.text ?? '') } : {}),
      target: steps.askPoints,
    },
    // Only the names: values can be secrets and the review is on screen.
    { label: vscode.l10n.t('$(symbol-variable) Environment'), description: envKeys.length > 0 ? envKeys.join(', ') : vscode.l10n.t('none'), target: steps.askEnv },
    { label: vscode.l10n.t('$(terminal) Start command'), description: state.startCommand.trim() || vscode.l10n.t("image's entrypoint"), target: steps.askStartCommand },
    {
      label: vscode.l10n.t('$(database) NAS volume'),
      description: state.volume ? vscode.l10n.t('{0} at {1}', state.volume.name, normalTargetDir(state.targetDir)) : vscode.l10n.t('none'),
      target: steps.askMount,
    },
  ];
  if (canEncrypt) items.push({ label: vscode.l10n.t('$(lock) Body'), description: state.encrypt ? vscode.l10n.t('encrypted') : vscode.l10n.t('signed, not encrypted'), target: steps.askEncrypt });
  return items;
}

/**
 * The wizard's words for a filled-in state: its title, the region step's rows and the review rows
 * (labels, descriptions, details). For the in-host display-language check (test/integration/l10n).
 */
export function wizardTexts(given: Omit<WizardState, 'reviewing' | 'volume' | 'targetDir'> & Partial<Pick<WizardState, 'volume' | 'targetDir'>>, profile: Profile, canEncrypt: boolean): string[] {
  const state = { volume: undefined, targetDir: DEFAULT_TARGET_DIR, ...given };
  const noStep: Step = async () => undefined;
  const steps: FieldSteps = { askName: noStep, askRegion: noStep, askImage: noStep, askPorts: noStep, askPoints: noStep, askEnv: noStep, askStartCommand: noStep, askMount: noStep, askEncrypt: noStep };
  const title = profile.environment === 'prod' ? vscode.l10n.t('Create Task on "{0}" (PRODUCTION)', profile.label) : vscode.l10n.t('Create Task on "{0}"', profile.label);
  const rows = [...(state.choice ? [regionPickItem(state.choice)] : []), ...reviewItems({ ...state, reviewing: true }, profile, canEncrypt, steps)];
  return [title, ...rows.flatMap((row) => [row.label, row.description ?? '', row.detail ?? ''])];
}

function errorOf<T extends object>(result: T | { error: string }): string | undefined {
  return 'error' in result && typeof result.error === 'string' ? result.error : undefined;
}

function defaultTaskName(): string {
  const now = new Date();
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `task-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
}
