// The rows of the Tasks view: a task, its services and public URLs, its nodes; their labels, icons
// and tooltips. The tree that arranges them (active first, then Ended) is tasksTree.ts.
import * as vscode from 'vscode';
import type { RemotePort, ServiceSpec, TaskNode, TaskSummary } from '../../core/compute/api';
import { Commands } from '../commandIds';
import { formatDateTime } from '../ui/dates';
import { deviceLabel, formatPoints, taskDescription, taskPlacement, taskStatusColor, taskStatusIcon, taskStatusLabel } from '../ui/format';
import { countOf } from '../../core/deviceLabel';
import { nodeStatusLabel } from '../ui/statusWords';
import { markdownText as md } from '../markdownText';
import { ErrorRow, InfoRow } from '../trees/treeMessages';
import { taskContextValue, type TaskRowTag } from './taskContextValue';
import { EndedGroupItem, LoadMoreItem } from './taskGroups';

type TaskService = ServiceSpec & { service_id: number };

/** What another area adds to a task row: text after its description, and tags for its menus. */
export interface TaskAnnotation {
  text: string;
  tags?: readonly TaskRowTag[];
}

export class TaskItem extends vscode.TreeItem {
  readonly kind = 'task' as const;
  constructor(
    readonly task: TaskSummary,
    /** The Ended group, for ended tasks (reveal needs the parent). */
    readonly parent?: EndedGroupItem,
    /** Extra text and tags from other areas, e.g. a pause timer's time left. */
    annotation?: TaskAnnotation,
  ) {
    super(task.task_name, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `task/${task.task_id}`;
    this.description = annotation ? `${taskDescription(task)} · ${annotation.text}` : taskDescription(task);
    this.tooltip = taskTooltip(task);
    const color = taskStatusColor(task.status);
    this.iconPath = new vscode.ThemeIcon(taskStatusIcon(task.status), color ? new vscode.ThemeColor(color) : undefined);
    this.contextValue = taskContextValue(task, annotation?.tags);
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
    this.tooltip = vscode.l10n.t('{0}: {1}\nPorts: {2}', service.service_name, service.service_image, service.remote_ports.map((port) => port.service_port).join(', ') || vscode.l10n.t('none'));
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
    super(url ?? vscode.l10n.t('port {0}', port.service_port), vscode.TreeItemCollapsibleState.None);
    this.id = `task/${task.task_id}/service/${service.service_id}/port/${port.service_port}`;
    this.description = url ? `→ :${port.service_port}` : noUrlReason(task.status);
    this.tooltip = url ? vscode.l10n.t('Open {0} (container port {1})', url, port.service_port) : vscode.l10n.t('Port {0}: {1}', port.service_port, noUrlReason(task.status));
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

/** Why a port shows no public URL: only a starting task is still waiting for one. */
function noUrlReason(status: TaskSummary['status']): string {
  if (status === 'End') return vscode.l10n.t('task ended: no public URL');
  if (status === 'Paused') return vscode.l10n.t('no public URL while paused');
  return vscode.l10n.t('no public URL yet');
}

export class NodesGroupItem extends vscode.TreeItem {
  readonly kind = 'nodes' as const;
  constructor(
    readonly task: TaskSummary,
    readonly parent: TaskItem,
  ) {
    super(vscode.l10n.t('Nodes'), vscode.TreeItemCollapsibleState.Collapsed);
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
    this.description = `${nodeStatusLabel(node.status)} · ${node.region_name}`;
    this.tooltip = new vscode.MarkdownString(
      [
        `**${md(node.name)}** (${vscode.l10n.t('point {0}', md(node.point_id))})`,
        '',
        `- ${vscode.l10n.t('Status: {0}', md(nodeStatusLabel(node.status)))}`,
        `- ${vscode.l10n.t('Region: {0}', `${md(node.region_name)} (${md(node.region)})`)}`,
        `- ${node.resource.gpu_name ? `${md(deviceLabel(node.resource))}, ` : ''}${vscode.l10n.t('{0} CPU', md(countOf(node.resource.cpu_cores) ?? '?'))}`,
        `- ${vscode.l10n.t('Billed: {0}', formatPoints(node.billing_value))}`,
        '',
        `_${vscode.l10n.t('Click to show its log.')}_`,
      ].join('\n'),
    );
    this.iconPath = new vscode.ThemeIcon(nodeStatusIcon(node.status));
    this.contextValue = 'node';
    this.command = { title: vscode.l10n.t('Show Node Log'), command: Commands.nodesShowLog, arguments: [this] };
  }
}

export type TaskElement = TaskItem | ServiceItem | ServiceUrlItem | NodesGroupItem | NodeItem | EndedGroupItem | LoadMoreItem | ErrorRow | InfoRow;

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
    `**${md(task.task_name)}** · ${vscode.l10n.t('task {0}', md(task.task_id))}`,
    '',
    `- ${vscode.l10n.t('Status: {0}', `**${md(taskStatusLabel(task.status))}**`)}`,
    `- ${vscode.l10n.t('Nodes: {0} running of {1}', md(task.runing_points), md(task.points))}`,
  ];
  const placement = taskPlacement(task);
  if (placement) lines.push(`- ${vscode.l10n.t('Resource: {0}', md(placement))}`);
  const created = formatDateTime(task.create_time);
  if (created) lines.push(`- ${vscode.l10n.t('Created: {0}', created)}`);
  lines.push(`- ${vscode.l10n.t('Billed: {0} (not yet billed: {1})', formatPoints(task.billing_value), formatPoints(task.forecast_value))}`);
  for (const service of task.services) {
    const urls = service.remote_ports.map((port) => (port.url ? md(port.url) : vscode.l10n.t(':{0} (no URL yet)', md(port.service_port))));
    lines.push(`- ${vscode.l10n.t('Service {0}: {1}', md(service.service_name), md(service.service_image))}${urls.length > 0 ? ` — ${urls.join(', ')}` : ''}`);
  }
  const tooltip = new vscode.MarkdownString(lines.join('\n'));
  tooltip.supportThemeIcons = true;
  return tooltip;
}
