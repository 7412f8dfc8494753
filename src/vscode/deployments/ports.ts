// What the deployments area consumes from its siblings (docs/areas.md): ports the composition root passes
// in by constructor, declared here by the consumer. The other areas' test APIs (ComputeApi, ChatApi,
// SpendApi) satisfy them structurally; the area never imports those.

import type { TaskSummary } from '../../core/compute/api';
import type { Activity } from '../../core/spend/activity';
import type { StartTookPort } from '../../core/preheat/preheatFollow';
import type { TaskCreateInput } from '../tasks/index';

/** The task lifecycle as the Tasks view runs it (its row, its wake): create, reveal, pause, recover. */
export interface DeploymentTasks {
  createTask(input: TaskCreateInput, signal?: AbortSignal): Promise<number>;
  revealTask(taskId: number): void;
  pauseTask(taskId: number): Promise<void>;
  recoverTask(taskId: number): Promise<void>;
  /** The tasks the Tasks view holds now (no request). */
  listedTasks(): readonly TaskSummary[];
}

/** The chat, told of a model that became ready so it is preselected there. */
export interface DeploymentChat {
  preferModel(modelId: string): void;
}

/** A running task's effective price per node (points/s), from the spend area's price book. */
export type PriceOfTask = (task: TaskSummary) => Promise<number | undefined>;

export interface DeploymentPorts {
  tasks: DeploymentTasks;
  chat: DeploymentChat;
  /** What is active on a task of the active profile now: the one activity rule for pausing holds the idle pause. */
  activityOf(taskId: number): readonly Activity[];
  /** Told how long a deployment took to answer (the preheat offer). */
  startTook: StartTookPort;
}
