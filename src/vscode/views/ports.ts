// What the compute area consumes from other areas (docs/areas.md): ports the composition root passes in
// by constructor, declared here by the consumer.

import type { TaskAnnotation } from '../tasks/taskRows';

export interface ComputePorts {
  /** Text and menu tags another area adds to a task's row (a pause timer's time left), read as the row is drawn. */
  taskAnnotation(taskId: number): TaskAnnotation | undefined;
}
