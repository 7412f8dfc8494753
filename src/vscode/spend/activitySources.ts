// The one activity rule's sources besides kernels (docs/money.md, "What counts as active"): a deployed model
// answering a request (its task holds idle pause and timers), an open machine terminal or SSH port forward,
// a Run on GPU going on (a machine and a job are paused by no rule: a budget's auto-pause names them as
// still running). Ports only: the areas hand in what they already keep, read when a pause is decided.

import type { Activity, ActivityRegistry } from '../../core/spend/activity';
import type { Disposable } from 'vscode';
import type { RegisteredArea } from '../areaRegistry';

export interface ActivityPorts {
  /** The active profile's id: the machines, runs and deployments below are that profile's. */
  profileId(): string | undefined;
  /** Deployments answering a request now, and a task's name. */
  answering(): readonly number[];
  taskName(taskId: number): string | undefined;
  /** Machine terminals open now. */
  machineTerminals(): readonly { deviceId: number; terminal: { name: string } }[];
  /** SSH port forwards open now. */
  machineForwards(): readonly { deviceId: number; remotePort: number; localPort: number }[];
  /** Jobs of Run on GPU runs going on now. */
  runningRuns(): readonly number[];
}

export function activitiesOf(ports: ActivityPorts): Activity[] {
  const profileId = ports.profileId();
  if (profileId === undefined) return [];
  return [
    ...ports.answering().map((taskId): Activity => ({ kind: 'model-answering', profileId, taskId, label: ports.taskName(taskId) ?? String(taskId) })),
    ...ports.machineTerminals().map((record): Activity => ({ kind: 'terminal', profileId, deviceId: record.deviceId, label: record.terminal.name })),
    ...ports.machineForwards().map((forward): Activity => ({ kind: 'ssh', profileId, deviceId: forward.deviceId, label: [forward.deviceId, forward.remotePort].join(':') })),
    ...ports.runningRuns().map((jobId): Activity => ({ kind: 'run-on-gpu', profileId, jobId, label: String(jobId) })),
  ];
}

/** `own`: the registry's list for this area (areaRegistry.ts). */
export function registerActivitySources(registry: Pick<ActivityRegistry, 'add'>, ports: ActivityPorts, own: Disposable[] = []): RegisteredArea<object> {
  own.push({ dispose: registry.add(() => activitiesOf(ports)) });
  return { api: {}, disposables: own };
}
