// What the tasks area consumes from its siblings (docs/areas.md): ports the composition root passes in by
// constructor, declared here by the consumer. The Tasks view (views/) and the chat satisfy them
// structurally; the area never imports their test APIs.

import type { TaskSummary } from '../../core/compute/api';

/** The tasks the Tasks view holds now (no request). */
export interface ListedTasks {
  listedTasks(): readonly TaskSummary[];
}

/** The Tasks view: its rows, a reload, a row shown. */
export interface TasksView extends ListedTasks {
  refresh(view: 'tasks'): Promise<void>;
  revealTask(taskId: number): void;
}

/** The chat, asked to explain a failure in a new conversation. */
export interface TasksChat {
  open(): Promise<void>;
  newConversation(): unknown;
  send(text: string): Promise<unknown>;
}
