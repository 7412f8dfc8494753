// What the spend area consumes from the Tasks view (docs/areas.md): a port the composition root passes in
// by constructor, declared here by the consumer; the area never imports the compute test API.

import type { ListedTasks } from '../tasks/index';

export interface SpendTasks extends ListedTasks {
  pauseTask(taskId: number): Promise<void>;
  recoverTask(taskId: number): Promise<void>;
  /** Adds text and menu tags to task rows (a timer's time left); `rerenderTasks` redraws them without a request. */
  annotateTasks(annotate: (taskId: number) => { text: string; tags?: readonly 'pauseTimer'[] } | undefined): void;
  rerenderTasks(): void;
}
