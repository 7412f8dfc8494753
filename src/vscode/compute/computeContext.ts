// What the compute area's command-table entries receive at registration: the services, the trees and
// the parts built around them (see compute/index.ts).
import type { ExtensionServices } from '../services';
import type { RegionHint } from './createTaskWizard';
import type { NodeLogViewer } from './nodeLog';
import type { ResourceFilterStore } from './resourceFilter';
import type { ResourcesTree } from './resourcesTree';
import type { StorageTree } from './storageTree';
import type { TaskActions } from './taskActions';
import type { TasksTree } from './tasksTree';

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
