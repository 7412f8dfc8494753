// The Tasks view: tasks with status icons → services (public URLs) and nodes.
import { Commands, Views } from '../commandIds';
import * as vscode from 'vscode';
import type { RemotePort, ServiceSpec, TaskNode, TaskSummary } from '../../core/compute/api';
import type { ExtensionServices } from '../services';
import { formatDateTime, formatPoints, taskDescription, taskPlacement, taskStatusColor, taskStatusIcon } from './format';
import { RemoteTree } from './remoteTree';
import { ErrorRow, InfoRow, viewMessage } from './treeMessages';
import { errorMessage } from '../../shared/errorMessage';

export const TASKS_VIEW_ID = Views.tasks;

/** Tasks listed per refresh. The platform pages; 100 covers an engineer's live tasks. */
const PAGE_SIZE = 100;
/** How long a task we just created is shown before the platform lists it (eventual consistency). */
const OPTIMISTIC_TTL_MS = 120_000;

type TaskService = ServiceSpec & { service_id: number };

export class TaskItem extends vscode.TreeItem {
  readonly kind = 'task' as const;
  constructor(
    readonly task: TaskSummary,
    /** Extra text from other areas, e.g. a pause timer's time left. */
    annotation?: string,
  ) {
    super(task.task_name, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `task/${task.task_id}`;
    this.description = annotation ? `${taskDescription(task)} · ${annotation}` : taskDescription(task);
    this.tooltip = taskTooltip(task);
    const color = taskStatusColor(task.status);
    this.iconPath = new vscode.ThemeIcon(taskStatusIcon(task.status), color ? new vscode.ThemeColor(color) : undefined);
    this.contextValue = `task.${task.status}`;
  }
}

export class ServiceItem extends vscode.TreeItem {
  readonly kind = 'service' as const;
  constructor(
    readonly task: TaskSummary,
    readonly service: TaskService,
    readonly parent: TaskItem,
  ) {
    super(service.service_name, service.remote_ports.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    this.id = `task/${task.task_id}/service/${service.service_id}`;
    this.description = service.service_image;
    this.tooltip = vscode.l10n.t('{0}: {1}\nPorts: {2}', service.service_name, service.service_image, service.remote_ports.map((port) => port.service_port).join(', ') || 'none');
    this.iconPath = new vscode.ThemeIcon('package');
    this.contextValue = 'service';
  }
}

export class ServiceUrlItem extends vscode.TreeItem {
  readonly kind = 'serviceUrl' as const;
  constructor(
    readonly task: TaskSummary,
    readonly service: TaskService,
    readonly port: RemotePort,
    readonly parent: ServiceItem,
  ) {
    const url = port.url ?? undefined;
    super(url ?? `port ${port.service_port}`, vscode.TreeItemCollapsibleState.None);
    this.id = `task/${task.task_id}/service/${service.service_id}/port/${port.service_port}`;
    this.description = url ? `→ :${port.service_port}` : 'no public URL yet';
    this.tooltip = url ? `Open ${url} (container port ${port.service_port})` : `Port ${port.service_port} has no public URL yet (the task may still be starting).`;
    this.iconPath = new vscode.ThemeIcon(url ? 'link-external' : 'plug');
    if (url) {
      this.contextValue = 'serviceUrl';
      this.command = { title: vscode.l10n.t('Open Service URL'), command: Commands.tasksOpenServiceUrl, arguments: [this] };
    } else {
      this.contextValue = 'servicePort';
    }
  }

  get url(): string | undefined {
    return this.port.url ?? undefined;
  }
}

export class NodesGroupItem extends vscode.TreeItem {
  readonly kind = 'nodes' as const;
  constructor(
    readonly task: TaskSummary,
    readonly parent: TaskItem,
  ) {
    super('Nodes', vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `task/${task.task_id}/nodes`;
    this.description = vscode.l10n.t('{0}/{1} running', task.runing_points, task.points);
    this.iconPath = new vscode.ThemeIcon('server-environment');
    this.contextValue = 'nodes';
  }
}

export class NodeItem extends vscode.TreeItem {
  readonly kind = 'node' as const;
  constructor(
    readonly task: TaskSummary,
    readonly node: TaskNode,
    readonly parent: NodesGroupItem,
  ) {
    super(node.name, vscode.TreeItemCollapsibleState.None);
    this.id = `task/${task.task_id}/node/${node.point_id}`;
    this.description = `${node.status} · ${node.region_name}`;
    this.tooltip = new vscode.MarkdownString(
      [
        `**${node.name}** (point ${node.point_id})`,
        '',
        `- Status: ${node.status}`,
        `- Region: ${node.region_name} (\`${node.region}\`)`,
        `- ${node.resource.gpu_name ? `${node.resource.gpu_name} × ${node.resource.gpu_count}, ` : ''}${node.resource.cpu_cores} CPU`,
        `- Billed: ${formatPoints(node.billing_value)}`,
        '',
        '_Click to show its log._',
      ].join('\n'),
    );
    this.iconPath = new vscode.ThemeIcon(nodeStatusIcon(node.status));
    this.contextValue = 'node';
    this.command = { title: vscode.l10n.t('Show Node Log'), command: Commands.nodesShowLog, arguments: [this] };
  }
}

export type TaskElement = TaskItem | ServiceItem | ServiceUrlItem | NodesGroupItem | NodeItem | ErrorRow | InfoRow;

function nodeStatusIcon(status: TaskNode['status']): string {
  switch (status) {
    case 'Running':
      return 'vm-running';
    case 'Pending':
      return 'loading~spin';
    case 'Failed':
      return 'error';
    case 'Succeeded':
    case 'End':
      return 'vm-outline';
    default:
      return 'vm';
  }
}

function taskTooltip(task: TaskSummary): vscode.MarkdownString {
  const lines = [
    `**${task.task_name}** · task ${task.task_id}`,
    '',
    `- Status: **${task.status}**`,
    `- Nodes: ${task.runing_points} running of ${task.points}`,
  ];
  const placement = taskPlacement(task);
  if (placement) lines.push(`- Resource: ${placement}`);
  const created = formatDateTime(task.create_time);
  if (created) lines.push(`- Created: ${created}`);
  lines.push(`- Billed: ${formatPoints(task.billing_value)} (not yet billed: ${formatPoints(task.forecast_value)})`);
  for (const service of task.services) {
    const urls = service.remote_ports.map((port) => port.url ?? `:${port.service_port} (no URL yet)`);
    lines.push(`- Service \`${service.service_name}\`: ${service.service_image}${urls.length > 0 ? ` — ${urls.join(', ')}` : ''}`);
  }
  const tooltip = new vscode.MarkdownString(lines.join('\n'));
  tooltip.supportThemeIcons = true;
  return tooltip;
}

export class TasksTree extends RemoteTree<TaskSummary[], TaskElement> {
  /** Tasks created here that the platform does not list yet, shown at once (by id). */
  private readonly optimistic = new Map<number, { task: TaskSummary; addedAt: number }>();
  private annotate: ((taskId: number) => string | undefined) | undefined;

  /** Lets another area add text to task rows (pause timers); call `rerender()` when it changes. */
  setAnnotator(annotate: (taskId: number) => string | undefined): void {
    this.annotate = annotate;
    this.render();
  }

  /** Redraws the rows from what is loaded, without a request. */
  rerender(): void {
    this.render();
  }

  constructor(services: ExtensionServices) {
    super(services, TASKS_VIEW_ID, (signal) => this.loadTasks(signal));
  }

  /** The tasks the view shows: the platform's list plus tasks created here it does not list yet. */
  get tasks(): TaskSummary[] {
    return this.merge(this.data.value ?? []);
  }

  findTask(taskId: number): TaskSummary | undefined {
    return this.tasks.find((task) => task.task_id === taskId);
  }

  hasPending(): boolean {
    return this.tasks.some((task) => task.status === 'Pending');
  }

  /** Shows a just-created task at once; the next refresh replaces it with the platform's row. */
  insertOptimistic(task: TaskSummary): void {
    this.optimistic.set(task.task_id, { task, addedAt: Date.now() });
    this.render();
  }

  message(): string | undefined {
    if (!this.services.profiles.active) return undefined;
    const state = this.data.state;
    if (state.kind === 'loaded' && this.optimistic.size > 0) return undefined;
    return viewMessage(state, 'tasks', this.services.redactor, (tasks) => tasks.length === 0, 'No tasks yet. Create one with + or from a region in Resources.');
  }

  getParent(element: TaskElement): TaskElement | undefined {
    return 'parent' in element ? element.parent : undefined;
  }

  async getChildren(element?: TaskElement): Promise<TaskElement[]> {
    if (!element) return this.rootChildren();
    switch (element.kind) {
      case 'task':
        return [
          ...element.task.services.map((service) => new ServiceItem(element.task, service, element)),
          new NodesGroupItem(element.task, element),
        ];
      case 'service':
        return element.service.remote_ports.map((port) => new ServiceUrlItem(element.task, element.service, port, element));
      case 'nodes':
        return this.nodeChildren(element);
      default:
        return [];
    }
  }

  private async rootChildren(): Promise<TaskElement[]> {
    if (!this.services.profiles.active) return [];
    await this.data.ensureLoaded();
    const state = this.data.state;
    if (state.kind === 'failed' && !state.stale && this.optimistic.size === 0) return [new ErrorRow(state.error, 'tasks', Commands.tasksRefresh, this.services.redactor)];
    return this.tasks.map((task) => new TaskItem(task, this.annotate?.(task.task_id)));
  }

  /** Nodes load when the group expands; a failure becomes a row, never a popup. */
  private async nodeChildren(group: NodesGroupItem): Promise<TaskElement[]> {
    try {
      const nodes = await this.services.computeClient().call('node.list', { task_id: group.task.task_id, page: 1, page_size: PAGE_SIZE });
      if (nodes.results.length === 0) {
        const why = group.task.status === 'Pending' ? 'No nodes yet (scheduling…)' : 'No nodes';
        return [new InfoRow(`task/${group.task.task_id}/nodes/empty`, why)];
      }
      return nodes.results.map((node) => new NodeItem(group.task, node, group));
    } catch (error) {
      this.services.logger.warn(`Tasks: could not list nodes of task ${group.task.task_id}: ${errorMessage(error)}`);
      const row = new ErrorRow(error, 'nodes', Commands.tasksRefresh, this.services.redactor);
      row.id = `task/${group.task.task_id}/nodes/error`;
      return [row];
    }
  }

  private async loadTasks(signal: AbortSignal): Promise<TaskSummary[]> {
    try {
      const page = await this.services.computeClient().call('task.list', { type: 'Deployment', page: 1, page_size: PAGE_SIZE }, { signal });
      return page.results;
    } catch (error) {
      this.services.logger.warn(`Tasks: could not load the task list: ${errorMessage(error)}`);
      throw error;
    }
  }

  private merge(listed: readonly TaskSummary[]): TaskSummary[] {
    const now = Date.now();
    const listedIds = new Set(listed.map((task) => task.task_id));
    const extra: TaskSummary[] = [];
    for (const [id, entry] of this.optimistic) {
      // Once the platform lists the task (or it took too long), its own row is the truth.
      if (listedIds.has(id) || now - entry.addedAt > OPTIMISTIC_TTL_MS) this.optimistic.delete(id);
      else extra.push(entry.task);
    }
    return [...extra, ...listed];
  }

  /** Profile switch: drop rows and optimistic tasks of the old profile. */
  override reset(): void {
    this.optimistic.clear();
    this.data.reset();
  }
}
