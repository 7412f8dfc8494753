// Task operations without any UI: the commands call these after asking the user, and the in-host
// tests call them directly, so both go through the same code path. Each keeps the Tasks view current.
import type { TaskDetail } from '../../core/compute/api';
import type { ExtensionServices } from '../services';
import { buildTaskCreateBody, optimisticTask, type TaskCreateInput } from './taskInput';
import type { TasksTree } from './tasksTree';

export type LifecycleAction = 'pause' | 'recover' | 'stop';

const OPERATION = { pause: 'task.pause', recover: 'task.recover', stop: 'task.stop' } as const;
const PAST_TENSE: Record<LifecycleAction, string> = { pause: 'Paused', recover: 'Recovered', stop: 'Stopped' };

export class TaskActions {
  constructor(
    private readonly services: ExtensionServices,
    private readonly tree: TasksTree,
  ) {}

  /** Creates the task, shows it in the Tasks view at once, then refreshes from the platform. */
  async create(input: TaskCreateInput, signal?: AbortSignal): Promise<number> {
    const body = buildTaskCreateBody(input);
    const { task_id: taskId } = await this.services
      .computeClient()
      .call('task.create', body, { ...(signal ? { signal } : {}), encrypt: input.encrypt === true });
    // The body is not logged: env values can hold secrets.
    this.services.logger.info(`Created task ${taskId} "${body.task_name}" (${input.points} node(s), ${input.region.region_name}).`);
    this.tree.insertOptimistic(optimisticTask(taskId, body));
    void this.tree.data.refreshAfterChange();
    return taskId;
  }

  /** Pause / recover / stop (stop deletes the task on the platform: the command confirms first). */
  async lifecycle(action: LifecycleAction, taskId: number, signal?: AbortSignal): Promise<void> {
    await this.services.computeClient().call(OPERATION[action], { task_id: taskId }, signal ? { signal } : undefined);
    this.services.logger.info(`${PAST_TENSE[action]} task ${taskId}.`);
    await this.tree.data.refreshAfterChange();
  }

  async changePoints(taskId: number, points: number, signal?: AbortSignal): Promise<void> {
    await this.services.computeClient().call('task.changePoints', { task_id: taskId, points }, signal ? { signal } : undefined);
    this.services.logger.info(`Changed task ${taskId} to ${points} node(s).`);
    await this.tree.data.refreshAfterChange();
  }

  /** Reloads the Tasks view from a request that starts now (after a change made elsewhere). */
  refreshTasks(): Promise<void> {
    return this.tree.data.refreshAfterChange();
  }

  detail(taskId: number, signal?: AbortSignal): Promise<TaskDetail> {
    return this.services.computeClient().call('task.detail', { task_id: taskId }, signal ? { signal } : undefined);
  }
}
