// What the compute area's command-table entries receive at registration: the services, the trees and
// the parts built around them (see views/index.ts).
import type { ExtensionServices } from '../services';
import type { RegionHint } from './createTaskWizard';
import type { NodeLogViewer } from '../tasks/nodeLog';
import type { ResourceFilterStore } from '../resources/resourceFilter';
import type { ResourcesTree } from '../resources/resourcesTree';
import type { StorageTree } from '../storage/storageTree';
import type { TaskActions } from '../tasks/taskActions';
import type { TasksTree } from '../tasks/tasksTree';

export interface ComputeContext {
  services: ExtensionServices;
  resources: ResourcesTree;
  tasks: TasksTree;
  storage: StorageTree;
  filter: ResourceFilterStore;
  actions: TaskActions;
  nodeLog: NodeLogViewer;
  runCreateWizard: (hint?: RegionHint) => Promise<unknown>;
}
