// What the spend area consumes from the Tasks view (docs/areas.md): a port the composition root passes in
// by constructor, declared here by the consumer; the area never imports the compute test API.

import type { ListedTasks } from '../tasks/index';
import type { SpendRentals } from '../../shared/spendProtocol';

export interface SpendTasks extends ListedTasks {
  pauseTask(taskId: number): Promise<void>;
  recoverTask(taskId: number): Promise<void>;
  /** Redraws the task rows (they read `SpendApi.taskAnnotation` again), without a request. */
  rerenderTasks(): void;
}

/** The rented machines the Spend page lists, from the machines area (none when that area did not start). */
export type SpendRentalsPort = () => Promise<SpendRentals>;
