// Task commands for context menus and the palette: from a tree row the task is the row; from the
// palette the user picks one. Confirmations and inputs live here; the work is in TaskActions.
import * as vscode from 'vscode';
import { confirmSpend } from '../ui/multiStepInput';
import { abortSignalFor } from '../ui/cancellation';
import { Commands, type CommandId } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { TaskStatus, TaskSummary } from '../../core/compute/api';
import { isAbort } from '../../core/errors';
import { resourceServiceOf, taskServiceOf } from '../client/computeServices';
import type { ExtensionServices, Profile, ReadOnlyDocumentOptions } from '../services';
import { taskPlacement, taskStatusIcon, taskStatusLabel } from '../ui/format';
import type { NodeLogTarget, NodeLogViewer } from './nodeLog';
import type { TaskActions } from './taskActions';
import { maskTaskEnv } from '../../core/tasks/envMask';
import { parsePoints } from './taskInput';
import { scaleCostNote } from './createDefaults';
import { effectivePointsPerSecond } from '../../core/spend/units';
import { NodeItem, ServiceUrlItem } from './taskRows';
import type { TasksTree } from './tasksTree';
import { counted } from '../ui/counts';

/** The command-table context as the helpers below see it (the Tasks tree as `tree`). */
interface TaskCommandDeps {
  services: ExtensionServices;
  tree: TasksTree;
  actions: TaskActions;
  nodeLog: NodeLogViewer;
  runCreateWizard: () => Promise<unknown>;
}

/** What the task commands receive from the compute views (views/index.ts builds it): declared here, by the consumer. */
export interface TaskCommandContext {
  services: ExtensionServices;
  tasks: TasksTree;
  actions: TaskActions;
  nodeLog: NodeLogViewer;
  runCreateWizard: () => Promise<unknown>;
}

const deps = (context: TaskCommandContext): TaskCommandDeps => ({
  services: context.services,
  tree: context.tasks,
  actions: context.actions,
  nodeLog: context.nodeLog,
  runCreateWizard: () => context.runCreateWizard(),
});

const LIVE: readonly TaskStatus[] = ['Pending', 'Running', 'Paused'];
const ANY: readonly TaskStatus[] = ['Pending', 'Running', 'Paused', 'End', 'Other'];

/** Builds an entry whose handler sees the helpers' view of the context. */
function entry(id: CommandId, doing: string, handler: (deps: TaskCommandDeps, arg: unknown) => unknown): CommandEntry<TaskCommandContext> {
  return { id, doing, create: (context) => (arg?: unknown) => handler(deps(context), arg) };
}

export const taskCommands: readonly CommandEntry<TaskCommandContext>[] = [
  entry(Commands.tasksRefresh, vscode.l10n.t('Refresh tasks'), (deps) => deps.tree.refresh()),
  entry(Commands.tasksCreate, vscode.l10n.t('Create task'), (deps) => deps.runCreateWizard()),
  entry(Commands.tasksDetail, vscode.l10n.t('Show task detail'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, ANY, vscode.l10n.t('Task to show'));
    if (task) await openTaskDetail(deps, task.task_id);
  }),
  entry(Commands.tasksRevealEnv, vscode.l10n.t('Reveal env values'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, ANY, vscode.l10n.t('Task whose env values to reveal'));
    if (!task) return;
    const reveal = vscode.l10n.t('Reveal');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Show the env values of "{0}" in clear?', task.task_name),
      { modal: true, detail: vscode.l10n.t('They can hold tokens and passwords. Anyone who sees your screen will see them.') },
      reveal,
    );
    if (answer === reveal) await deps.services.openReadOnlyDocument(taskDetailDocument(deps.actions, task.task_id, true));
  }),
  entry(Commands.tasksPause, vscode.l10n.t('Pause task'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, ['Running'], vscode.l10n.t('Running task to pause'));
    if (task) await withProgress(deps.services, vscode.l10n.t('Pausing "{0}"…', task.task_name), vscode.l10n.t('Pause task {0}', task.task_id), (signal) => deps.actions.lifecycle('pause', task.task_id, signal));
  }),
  entry(Commands.tasksRecover, vscode.l10n.t('Recover task'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, ['Paused'], vscode.l10n.t('Paused task to recover'));
    if (task) await withProgress(deps.services, vscode.l10n.t('Recovering "{0}"…', task.task_name), vscode.l10n.t('Recover task {0}', task.task_id), (signal) => deps.actions.lifecycle('recover', task.task_id, signal));
  }),
  entry(Commands.tasksStop, vscode.l10n.t('Stop task'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, LIVE, vscode.l10n.t('Task to stop (delete)'));
    const profile = deps.services.profiles.active;
    if (!task || !profile) return;
    const decision = await confirmStop(task, profile);
    if (decision === 'pause') {
      await withProgress(deps.services, vscode.l10n.t('Pausing "{0}"…', task.task_name), vscode.l10n.t('Pause task {0}', task.task_id), (signal) => deps.actions.lifecycle('pause', task.task_id, signal));
    } else if (decision === 'stop') {
      await withProgress(deps.services, vscode.l10n.t('Stopping "{0}"…', task.task_name), vscode.l10n.t('Stop task {0}', task.task_id), (signal) => deps.actions.lifecycle('stop', task.task_id, signal));
    }
  }),
  entry(Commands.tasksChangePoints, vscode.l10n.t('Change node count'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, LIVE, vscode.l10n.t('Task whose node count to change'));
    const profile = deps.services.profiles.active;
    if (!task || !profile) return;
    // The price of the task's offer, so the box can show what the change costs (unknown: said so).
    const price = await offerPrice(deps.services, task).catch(() => undefined);
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Change Node Count of "{0}"', task.task_name),
      prompt: vscode.l10n.t('Nodes to run (now {0}; {1} running)', task.points, task.runing_points),
      value: String(task.points),
      ignoreFocusOut: true,
      validateInput: (text) => {
        const parsed = parsePoints(text);
        if ('error' in parsed) return parsed.error;
        if (parsed.points === task.points) return vscode.l10n.t('The task already has {0}.', counted(task.points, 'node'));
        return { message: scaleCostNote(task.points, parsed.points, price, vscode.l10n), severity: vscode.InputBoxValidationSeverity.Info };
      },
    });
    const parsed = value === undefined ? undefined : parsePoints(value);
    if (!parsed || 'error' in parsed) return;
    if (profile.environment === 'prod') {
      const go = await confirmSpend({
        title: vscode.l10n.t('Change "{0}" from {1} to {2} on PRODUCTION profile "{3}"?', task.task_name, counted(task.points, 'node'), counted(parsed.points, 'node'), profile.label),
        go: { label: vscode.l10n.t('Change Node Count'), detail: scaleCostNote(task.points, parsed.points, price, vscode.l10n) },
        placeholder: vscode.l10n.t('Review: pick Change Node Count, or Cancel'),
      });
      if (!go) return;
    }
    await withProgress(deps.services, vscode.l10n.t('Changing "{0}" to {1}…', task.task_name, counted(parsed.points, 'node')), vscode.l10n.t('Change node count of task {0}', task.task_id), (signal) =>
      deps.actions.changePoints(task.task_id, parsed.points, signal),
    );
  }),
  entry(Commands.tasksCopyId, vscode.l10n.t('Copy task id'), async (deps, arg) => {
    const task = await resolveTask(deps, arg, ANY, vscode.l10n.t('Task whose id to copy'));
    if (!task) return;
    await vscode.env.clipboard.writeText(String(task.task_id));
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied task id {0}', task.task_id), 3000);
  }),
  entry(Commands.tasksOpenServiceUrl, vscode.l10n.t('Open service URL'), async (deps, arg) => {
    const url = arg instanceof ServiceUrlItem ? arg.url : typeof arg === 'string' ? arg : await pickServiceUrl(deps.tree);
    if (url) await openServiceUrl(url);
  }),
  entry(Commands.nodesShowLog, vscode.l10n.t('Show node log'), async (deps, arg) => {
    const target = arg instanceof NodeItem ? await targetFromNode(deps, arg) : await pickNodeTarget(deps);
    if (!target) return;
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Fetching log of {0}…', target.nodeName) }, () => deps.nodeLog.show(target));
    } catch (error) {
      deps.services.reportError(error, vscode.l10n.t('Show log of node {0}', target.nodeName));
    }
  }),
];

/**
 * The task's detail as a read-only JSON document; opening it again refreshes it. Env values are masked
 * unless `reveal` (the explicit "Reveal Env Values" command): they can hold tokens.
 */
export function taskDetailDocument(actions: TaskActions, taskId: number, reveal = false): ReadOnlyDocumentOptions {
  return {
    key: reveal ? `task/${taskId}/revealed` : `task/${taskId}`,
    title: reveal ? vscode.l10n.t('Task {0} (env revealed).json', taskId) : vscode.l10n.t('Task {0}.json', taskId),
    language: 'json',
    content: async () => {
      const detail = await actions.detail(taskId);
      return `${JSON.stringify(reveal ? detail : maskTaskEnv(detail), null, 2)}\n`;
    },
  };
}

async function openTaskDetail(deps: TaskCommandDeps, taskId: number): Promise<void> {
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading task {0}…', taskId) }, () =>
      deps.services.openReadOnlyDocument(taskDetailDocument(deps.actions, taskId)),
    );
  } catch (error) {
    deps.services.reportError(error, vscode.l10n.t('Show task {0}', taskId));
  }
}

/** Runs a platform call under a cancellable notification; failures go to reportError. */
async function withProgress(services: ExtensionServices, title: string, context: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => work(abortSignalFor(token)));
  } catch (error) {
    if (!isAbort(error)) services.reportError(error, context);
  }
}

/** A task id from whatever the command was given: a tree row, a number, or `{task_id}`. */
export function taskIdFrom(arg: unknown): number | undefined {
  if (typeof arg === 'number' && Number.isInteger(arg)) return arg;
  if (typeof arg === 'string' && /^\d+$/.test(arg)) return Number(arg);
  if (typeof arg === 'object' && arg !== null) {
    const record = arg as { task_id?: unknown; task?: { task_id?: unknown } };
    if (typeof record.task_id === 'number') return record.task_id;
    if (typeof record.task?.task_id === 'number') return record.task.task_id;
  }
  return undefined;
}

async function resolveTask(deps: TaskCommandDeps, arg: unknown, statuses: readonly TaskStatus[], placeholder: string): Promise<TaskSummary | undefined> {
  const { services, tree } = deps;
  if (!(await services.requireProfile())) return undefined;
  const taskId = taskIdFrom(arg);
  if (taskId === undefined) return pickTask(deps, statuses, placeholder);
  let task = tree.findTask(taskId);
  // A held row can trail the platform by a poll (a change made elsewhere): read the task itself before
  // refusing it for its status, never on the held row alone.
  if (!task || !statuses.includes(task.status)) {
    try {
      task = await deps.actions.detail(taskId);
    } catch (error) {
      services.reportError(error, vscode.l10n.t('Find task {0}', taskId));
      return undefined;
    }
  }
  if (!statuses.includes(task.status)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Task "{0}" is {1}; this needs a {2} task.', task.task_name, taskStatusLabel(task.status), statuses.map(taskStatusLabel).join(vscode.l10n.t(' or '))));
    return undefined;
  }
  return task;
}

interface TaskPickItem extends vscode.QuickPickItem {
  task: TaskSummary;
}

async function pickTask(deps: TaskCommandDeps, statuses: readonly TaskStatus[], placeholder: string): Promise<TaskSummary | undefined> {
  const { tree, services } = deps;
  // Every task with one of the statuses, ended ones included when asked for (all their pages).
  let candidates: TaskSummary[];
  try {
    candidates = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading tasks…') }, () => tree.tasksWith(statuses));
  } catch (error) {
    services.reportError(error, vscode.l10n.t('Load tasks'));
    return undefined;
  }
  const state = tree.data.state;
  if (state.kind === 'failed' && !state.stale) {
    services.reportError(state.error, vscode.l10n.t('Load tasks'));
    return undefined;
  }
  if (candidates.length === 0) {
    const profile = services.profiles.active?.label ?? '';
    void vscode.window.showInformationMessage(vscode.l10n.t('No {0} tasks on profile "{1}".', statuses.map(taskStatusLabel).join(' / '), profile));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick<TaskPickItem>(
    candidates.map((task) => ({
      label: `$(${taskStatusIcon(task.status)}) ${task.task_name}`,
      description: `${task.task_id} · ${taskStatusLabel(task.status)}`,
      detail: taskPlacement(task),
      task,
    })),
    { title: placeholder, placeHolder: placeholder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.task;
}

/** Points per second per node of the offer a task runs on (one resource search), or undefined. */
async function offerPrice(services: ExtensionServices, task: TaskSummary): Promise<number | undefined> {
  const resource = task.resources[0]?.resource;
  if (!resource) return undefined;
  const page = await resourceServiceOf(services).deployments();
  const region = page.results.find((device) => device.device_name === resource.device_name)?.regions.find((candidate) => candidate.region === resource.region);
  return region ? (effectivePointsPerSecond(region) ?? undefined) : undefined;
}

type StopDecision = 'stop' | 'pause' | 'keep';

/**
 * Stop deletes the task. The question is a pick whose first, highlighted answer keeps the task, so
 * Enter or Escape never deletes anything; a prod profile also asks for the task name.
 */
async function confirmStop(task: TaskSummary, profile: Profile): Promise<'stop' | 'pause' | undefined> {
  const prod = profile.environment === 'prod';
  const items: (vscode.QuickPickItem & { decision: StopDecision })[] = [
    { label: vscode.l10n.t('$(close) Keep the task'), detail: vscode.l10n.t('Nothing changes.'), decision: 'keep' },
    ...(task.status === 'Running'
      ? [{ label: vscode.l10n.t('$(debug-pause) Pause instead'), detail: vscode.l10n.t('Frees the resources and keeps the task recoverable.'), decision: 'pause' as const }]
      : []),
    {
      label: vscode.l10n.t('$(trash) Stop and delete the task'),
      detail: prod
        ? vscode.l10n.t('Deletes the task on the platform; it cannot be undone. Production: you will type the task name next.')
        : vscode.l10n.t('Deletes the task on the platform; it cannot be undone.'),
      decision: 'stop',
    },
  ];
  const title = prod
    ? vscode.l10n.t('Stop task "{0}" ({1}) on PRODUCTION profile "{2}"?', task.task_name, task.task_id, profile.label)
    : vscode.l10n.t('Stop task "{0}" ({1}) on profile "{2}"?', task.task_name, task.task_id, profile.label);
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: title, ignoreFocusOut: true });
  if (picked?.decision === 'pause') return 'pause';
  if (picked?.decision !== 'stop') return undefined;
  if (!prod) return 'stop';
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Stop "{0}" on production profile "{1}"', task.task_name, profile.label),
    prompt: vscode.l10n.t('Type the task name to confirm the deletion. It cannot be undone.'),
    placeHolder: task.task_name,
    ignoreFocusOut: true,
    validateInput: (value) => (value === task.task_name ? undefined : vscode.l10n.t('Type the task name exactly.')),
  });
  return typed === task.task_name ? 'stop' : undefined;
}

async function openServiceUrl(url: string): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(url, true);
  } catch {
    void vscode.window.showWarningMessage(vscode.l10n.t('Not a valid URL: {0}', url));
    return;
  }
  // Only web addresses: a platform-provided string must not launch other URI handlers.
  if (uri.scheme !== 'https' && uri.scheme !== 'http') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Not opening {0}: only http and https addresses are opened.', url));
    return;
  }
  await vscode.env.openExternal(uri);
}

async function pickServiceUrl(tree: TasksTree): Promise<string | undefined> {
  await tree.data.ensureLoaded();
  const items: (vscode.QuickPickItem & { url: string })[] = [];
  for (const task of tree.tasks) {
    for (const service of task.services) {
      for (const port of service.remote_ports) {
        if (port.url) items.push({ label: port.url, description: `${task.task_name} · ${service.service_name}:${port.service_port}`, url: port.url });
      }
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No task has a public URL yet.'));
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Service URL to open'), matchOnDescription: true }))?.url;
}

/** The service whose log to show: the only one, or the user's pick. Listed tasks carry service ids. */
async function pickService(deps: TaskCommandDeps, task: TaskSummary): Promise<{ service_id: number; service_name: string } | undefined> {
  let services = task.services.filter((service) => service.service_id >= 0);
  if (services.length === 0) services = (await deps.actions.detail(task.task_id)).services; // a just-created task: ids come from detail
  if (services.length <= 1) return services[0];
  const picked = await vscode.window.showQuickPick(
    services.map((service) => ({ label: service.service_name, description: service.service_image, service })),
    { placeHolder: vscode.l10n.t('Service whose log to show') },
  );
  return picked?.service;
}

async function targetFromNode(deps: TaskCommandDeps, item: NodeItem): Promise<NodeLogTarget | undefined> {
  try {
    const service = await pickService(deps, item.task);
    if (!service) return undefined;
    return {
      taskId: item.task.task_id,
      taskName: item.task.task_name,
      pointId: item.node.point_id,
      nodeName: item.node.name,
      serviceId: service.service_id,
      serviceName: service.service_name,
    };
  } catch (error) {
    deps.services.reportError(error, vscode.l10n.t('Show log of node {0}', item.node.name));
    return undefined;
  }
}

async function pickNodeTarget(deps: TaskCommandDeps): Promise<NodeLogTarget | undefined> {
  const task = await resolveTask(deps, undefined, LIVE, vscode.l10n.t('Task whose node log to show'));
  if (!task) return undefined;
  try {
    const listed = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Listing nodes…') }, () =>
      taskServiceOf(deps.services).allNodes(task.task_id),
    );
    const nodes = { results: listed.items };
    if (nodes.results.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Task "{0}" has no nodes yet.', task.task_name));
      return undefined;
    }
    const node =
      nodes.results.length === 1
        ? nodes.results[0]
        : (
            await vscode.window.showQuickPick(
              nodes.results.map((candidate) => ({ label: candidate.name, description: `${candidate.status} · ${candidate.region_name}`, candidate })),
              { placeHolder: vscode.l10n.t('Node whose log to show') },
            )
          )?.candidate;
    if (!node) return undefined;
    const service = await pickService(deps, task);
    if (!service) return undefined;
    return { taskId: task.task_id, taskName: task.task_name, pointId: node.point_id, nodeName: node.name, serviceId: service.service_id, serviceName: service.service_name };
  } catch (error) {
    deps.services.reportError(error, vscode.l10n.t('Show a node log of task {0}', task.task_id));
    return undefined;
  }
}
