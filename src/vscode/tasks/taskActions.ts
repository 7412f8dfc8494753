// Task operations without any UI: the commands call these after asking the user, and the in-host
// tests call them directly, so both go through the same code path. The task service sends each and
// wakes the store; the Tasks view's next load polls it now.
import type { TaskDetail } from '../../core/compute/api';
import type { TaskService } from '../../core/tasks/taskService';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { buildTaskCreateBody, optimisticTask, type TaskCreateInput } from './taskInput';
import type { TasksTree } from './tasksTree';

export type LifecycleAction = 'pause' | 'recover' | 'stop';

const PAST_TENSE: Record<LifecycleAction, string> = { pause: 'Paused', recover: 'Recovered', stop: 'Stopped' };

export class TaskActions {
  /** The active profile's tasks; a change wakes the store through the Tasks view's next load. */
  readonly tasks: TaskService;

  constructor(
    private readonly services: ExtensionServices,
    private readonly tree: TasksTree,
  ) {
    this.tasks = taskServiceOf(services, () => this.tree.refreshAfterChange());
  }

  /** Creates the task, shows it in the Tasks view at once; the store is woken to confirm it. */
  async create(input: TaskCreateInput, signal?: AbortSignal): Promise<number> {
    const body = buildTaskCreateBody(input);
    return this.tasks.create(body, {
      ...(signal ? { signal } : {}),
      encrypt: input.encrypt === true,
      created: (taskId) => {
        // The body is not logged: env values can hold secrets.
        this.services.logger.info(`Created task ${taskId} "${body.task_name}" (${input.points} node(s), ${input.region.region_name}).`);
        this.tree.insertOptimistic(optimisticTask(taskId, body));
      },
    });
  }

  /** Pause / recover / stop (stop deletes the task on the platform: the command confirms first). */
  async lifecycle(action: LifecycleAction, taskId: number, signal?: AbortSignal): Promise<void> {
    await this.tasks.lifecycle(action, taskId, signal);
    this.services.logger.info(`${PAST_TENSE[action]} task ${taskId}.`);
  }

  async changePoints(taskId: number, points: number, signal?: AbortSignal): Promise<void> {
    await this.tasks.changePoints(taskId, points, signal);
    this.services.logger.info(`Changed task ${taskId} to ${points} node(s).`);
  }

  /** Reloads the Tasks view from a request that starts now (after a change made elsewhere). */
  refreshTasks(): Promise<void> {
    return this.tree.refreshAfterChange();
  }

  detail(taskId: number, signal?: AbortSignal): Promise<TaskDetail> {
    return this.tasks.detail(taskId, signal);
  }
}
