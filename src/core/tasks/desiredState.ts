// What a state-setting task operation (pause, recover, stop, change points) asks for, in terms task
// detail can confirm. These operations are retried after a lost or failed answer, but they are not
// idempotent on the platform: if the lost attempt did take effect, the retry is refused as an invalid
// transition (the sandbox answers C010). Checking the task's state tells that case apart from a real refusal.

import type { OperationId, TaskDetail } from '../compute/api';

export interface DesiredState {
  taskId: number;
  /** For logs: what the operation asked for, e.g. "status Paused". */
  description: string;
  reached(detail: TaskDetail): boolean;
}

/** The state `operation` with `params` asks for, or undefined for operations that set no task state. */
export function desiredStateOf(operation: OperationId, params: Readonly<Record<string, unknown>>): DesiredState | undefined {
  const taskId = params['task_id'];
  if (typeof taskId !== 'number') return undefined;
  switch (operation) {
    case 'task.pause':
      return { taskId, description: 'status Paused', reached: (detail) => detail.status === 'Paused' };
    case 'task.recover':
      // Recovering passes through Pending before Running.
      return { taskId, description: 'status Pending or Running', reached: (detail) => detail.status === 'Pending' || detail.status === 'Running' };
    case 'task.stop':
      return { taskId, description: 'status End', reached: (detail) => detail.status === 'End' };
    case 'task.changePoints': {
      const points = params['points'];
      if (typeof points !== 'number') return undefined;
      return {
        taskId,
        description: `${points} node(s)`,
        reached: (detail) => detail.points === points && detail.status !== 'End',
      };
    }
    default:
      return undefined;
  }
}
