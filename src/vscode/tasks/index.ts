// The tasks area's interface for other areas (lint: areas import each other only through index.ts).
// The trees and task commands are composed in views/index.ts; notifications, node care and the update
// flow are wired by register.ts (called from extension.ts).
export { TaskNotifier } from './taskNotifier';
export { deleteNode, explainFailure, nodeRefFrom, showNodeEvents, showTaskEvents } from './nodeCare';
export { TaskUpdateFlow } from './taskUpdate';
export { pickListedTask } from './taskPick';
export { registerTasks, type TasksAreaApi } from './register';
// The spec files area starts from the wizard's templates and reads task ids like the task commands.
export { imageTemplates, preselectRegion, type ImageTemplate } from './createDefaults';
export { serviceNameFor } from './taskInput';
export { taskIdFrom } from './taskCommands';
// What other areas declare their ports with: the create input (Deploy a Model… creates through it) and the listed tasks.
export type { TaskCreateInput } from './taskInput';
export type { ListedTasks } from './ports';
// New GPU Kernel… (notebooks) creates a Jupyter task with the same body as the wizard.
export { buildTaskCreateBody } from './taskInput';
