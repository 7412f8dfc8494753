// Node events as a timeline, deleting (rescheduling) one node with a confirmation, and "Explain
// Failure", which sends the task's masked spec, recent events and a log tail to Compute Chat.

import * as vscode from 'vscode';
import type { NodeEvent, TaskDetail, TaskNode, TaskSummary } from '../../core/compute/api';
import { failurePrompt, type FailureContext } from '../../core/tasks/failureReport';
import type { TasksChat } from './ports';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';

/** Nodes whose events a task timeline or a failure report reads (one request each). */
const MAX_NODES = 5;

export interface NodeRef {
  task: TaskSummary;
  node: TaskNode;
}

/** A tree node row (NodeItem) or anything shaped like one. */
export function nodeRefFrom(arg: unknown): NodeRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { task, node } = arg as Partial<NodeRef>;
  return task && node && typeof node.point_id === 'number' ? { task, node } : undefined;
}

/** One line per event, oldest first: "2026-01-05T10:02:11+08:00  Normal   Pulling  Pulling image …". */
export function timeline(events: readonly NodeEvent[]): string {
  return events
    .map((event) => `${String(event.event_time)}  ${String(event.type).padEnd(7)}  ${String(event.reason).padEnd(10)}  ${event.service ? `[${event.service}] ` : ''}${String(event.message).replace(/[\r\n]+/g, ' ')}`)
    .join('\n');
}

export async function showNodeEvents(services: ExtensionServices, ref: NodeRef): Promise<void> {
  await services.openReadOnlyDocument({
    key: `node-events/${ref.node.point_id}`,
    title: vscode.l10n.t('Events of node {0}.log', ref.node.point_id),
    language: 'log',
    content: async () => {
      const events = await taskServiceOf(services).nodeEvents(ref.node.point_id);
      return `${ref.node.name} (${ref.task.task_name})\n\n${timeline(events) || vscode.l10n.t('No events.')}\n`;
    },
  });
}

export async function showTaskEvents(services: ExtensionServices, task: TaskSummary): Promise<void> {
  await services.openReadOnlyDocument({
    key: `task-events/${task.task_id}`,
    title: vscode.l10n.t('Events of task {0}.log', task.task_id),
    language: 'log',
    content: async () => {
      const sections = await nodeEvents(services, task.task_id);
      const body = sections.map(({ nodeName, events }) => `── ${nodeName}\n${timeline(events) || vscode.l10n.t('No events.')}`).join('\n\n');
      return `${task.task_name} (${task.task_id})\n\n${body || vscode.l10n.t('No nodes.')}\n`;
    },
  });
}

async function nodeEvents(services: ExtensionServices, taskId: number): Promise<{ nodeName: string; pointId: number; events: NodeEvent[] }[]> {
  const tasks = taskServiceOf(services);
  const nodes = (await tasks.nodes(taskId, { page: 1, pageSize: MAX_NODES })).slice(0, MAX_NODES);
  return Promise.all(nodes.map(async (node) => ({ nodeName: node.name, pointId: node.point_id, events: await tasks.nodeEvents(node.point_id) })));
}

/** Deletes one node after a modal confirmation (the platform schedules a replacement). */
export async function deleteNode(services: ExtensionServices, ref: NodeRef, confirm = true): Promise<boolean> {
  const profile = services.profiles.active;
  if (!profile) return false;
  if (confirm) {
    const action = vscode.l10n.t('Delete Node');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete node {0} of "{1}" on {2}profile "{3}"?', ref.node.name, ref.task.task_name, profile.environment === 'prod' ? 'PRODUCTION ' : '', profile.label),
      {
        modal: true,
        detail: vscode.l10n.t('The platform deletes this node and schedules a new one: the task keeps its node count, but whatever ran on this node (its processes, local files, the log) is lost.'),
      },
      action,
    );
    if (choice !== action) return false;
  }
  await taskServiceOf(services).deleteNode(ref.node.point_id);
  services.logger.info(`Deleted node ${ref.node.point_id} of task ${ref.task.task_id}; the platform reschedules it.`);
  return true;
}

/** Gathers the failure context (detail, events of up to 5 nodes, the first node's log tail) and asks the chat. */
export async function explainFailure(services: ExtensionServices, chat: TasksChat, task: TaskSummary): Promise<string> {
  const tasks = taskServiceOf(services);
  const detail: TaskDetail = await tasks.detail(task.task_id);
  const sections = await nodeEvents(services, task.task_id);
  const context: FailureContext = { detail, events: sections };
  const first = sections[0];
  const service = detail.services[0];
  if (first && service) {
    try {
      const { logs } = await tasks.nodeLog({ taskId: task.task_id, pointId: first.pointId, serviceId: service.service_id });
      context.log = { nodeName: first.nodeName, serviceName: service.service_name, text: logs };
    } catch (error) {
      services.logger.warn(`Explain Failure: no log of ${first.nodeName}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const prompt = failurePrompt(context);
  await chat.open();
  chat.newConversation();
  void chat.send(prompt);
  return prompt;
}
