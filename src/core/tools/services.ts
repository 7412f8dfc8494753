// The tools reach the platform through the same services as the editor (src/core/<area>/<kind>Service.ts):
// the context's client, and its wake port when the host has a store.

import { JobService } from '../jobs/jobService';
import { ResourceService } from '../resources/resourceService';
import { StorageService } from '../storage/storageService';
import { TaskService } from '../tasks/taskService';
import type { ToolContext } from './api';

export function tasksOf(context: ToolContext): TaskService {
  return new TaskService(() => context.client, context.wake);
}

export function jobsOf(context: ToolContext): JobService {
  return new JobService(() => context.client, context.wake);
}

export function storageOf(context: Pick<ToolContext, 'client'>): StorageService {
  return new StorageService(() => context.client);
}

export function resourcesOf(context: Pick<ToolContext, 'client'>): ResourceService {
  return new ResourceService(() => context.client);
}
