// Tasks and their nodes on the platform: the only caller of the client for these operations (the
// editor, the agent tools and the MCP server all come here). Every change wakes the store once.

import type { OperationResult } from '../compute/api';
import { NO_WAKE, send, type ClientSource, type WakeStore } from '../state/servicePorts';
import { listNodes, taskPage, type Listed, type TaskQuery } from './listing';
import { endedTaskPage } from './taskState';
import type { NodeEvent, TaskCreateBody, TaskDetail, TaskNode, TaskUpdateBody } from './operations';

export type TaskLifecycle = 'pause' | 'recover' | 'stop';

const LIFECYCLE_OPERATION = { pause: 'task.pause', recover: 'task.recover', stop: 'task.stop' } as const;

export class TaskService {
  constructor(
    private readonly client: ClientSource,
    private readonly wake: WakeStore = NO_WAKE,
  ) {}

  /** One page of ended tasks (the Tasks view's "Ended (N)" group; never polled). */
  endedPage(page: number, pageSize: number, signal?: AbortSignal): ReturnType<typeof endedTaskPage> {
    return endedTaskPage(this.client(), page, pageSize, signal);
  }

  /** One page of tasks with these statuses (and name), newest first (the agent tools; the editor reads the store). */
  page(query: TaskQuery, page: number, pageSize: number, signal?: AbortSignal): ReturnType<typeof taskPage> {
    return taskPage(this.client(), query, page, pageSize, signal);
  }

  /** Creates the task; `created` runs before the store is woken (a view shows the task at once), without waiting for it. */
  async create(body: TaskCreateBody, options: { signal?: AbortSignal; encrypt?: boolean; created?: (taskId: number) => void } = {}): Promise<number> {
    const { task_id: taskId } = await send(this.client, 'task.create', body, options.signal, options.encrypt !== undefined ? { encrypt: options.encrypt } : undefined);
    options.created?.(taskId);
    void this.wake();
    return taskId;
  }

  /** Pause, recover or stop (stop deletes the task): the one place these are sent from. */
  async lifecycle(action: TaskLifecycle, taskId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, LIFECYCLE_OPERATION[action], { task_id: taskId }, signal);
    await this.wake();
  }

  async changePoints(taskId: number, points: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'task.changePoints', { task_id: taskId, points }, signal);
    await this.wake();
  }

  /** Replaces the task's whole configuration. */
  async update(body: TaskUpdateBody, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'task.update', body, signal);
    await this.wake();
  }

  detail(taskId: number, signal?: AbortSignal): Promise<TaskDetail> {
    return send(this.client, 'task.detail', { task_id: taskId }, signal);
  }

  /** One page of the task's nodes (the platform's default page unless one is given). */
  async nodes(taskId: number, page?: { page: number; pageSize: number }, signal?: AbortSignal): Promise<TaskNode[]> {
    return (await this.nodePage(taskId, page, signal)).results;
  }

  /** One page of the task's nodes with the total count. */
  nodePage(taskId: number, page?: { page: number; pageSize: number }, signal?: AbortSignal): Promise<OperationResult<'node.list'>> {
    const params = page ? { task_id: taskId, page: page.page, page_size: page.pageSize } : { task_id: taskId };
    return send(this.client, 'node.list', params, signal);
  }

  /** Every node of the task, page after page. */
  allNodes(taskId: number, signal?: AbortSignal): Promise<Listed<TaskNode>> {
    return listNodes(this.client(), taskId, signal ? { signal } : {});
  }

  async nodeEvents(pointId: number, signal?: AbortSignal): Promise<NodeEvent[]> {
    return (await send(this.client, 'node.events', { point_id: pointId }, signal)).events;
  }

  nodeLog(target: { taskId: number; pointId: number; serviceId: number }, signal?: AbortSignal): Promise<OperationResult<'node.log'>> {
    return send(this.client, 'node.log', { task_id: target.taskId, point_id: target.pointId, service_id: target.serviceId }, signal);
  }

  /** Deletes one node; the platform schedules a new one in its place. */
  async deleteNode(pointId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'node.delete', { point_id: pointId }, signal);
    await this.wake();
  }
}
