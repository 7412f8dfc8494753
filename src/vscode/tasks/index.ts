// The tasks area's interface for other areas (lint: areas import each other only through index.ts).
// The trees and task commands are composed in views/index.ts; the watcher, node care and the update
// flow are wired by spend/index.ts today (docs/areas.md).
export { TaskNotifier } from './taskNotifier';
export { deleteNode, explainFailure, nodeRefFrom, showNodeEvents, showTaskEvents } from './nodeCare';
export { TaskUpdateFlow } from './taskUpdate';
