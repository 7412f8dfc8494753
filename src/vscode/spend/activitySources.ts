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
  /** Machine terminals open now, each with the profile it was opened under (credited to that one). */
  machineTerminals(): readonly { deviceId: number; profileId?: string | undefined; terminal: { name: string } }[];
  /** SSH port forwards open now, each with its profile as the terminals. */
  machineForwards(): readonly { deviceId: number; profileId?: string | undefined; remotePort: number; localPort: number }[];
  /** Jobs of Run on GPU runs going on now. */
  runningRuns(): readonly number[];
}

export function activitiesOf(ports: ActivityPorts): Activity[] {
  const active = ports.profileId();
  // A machine's terminal or forward stays its own profile's after a switch (the machine is rented there).
  const machines = [
    ...ports.machineTerminals().map((record) => ({ profileId: record.profileId ?? active, activity: { kind: 'terminal' as const, deviceId: record.deviceId, label: record.terminal.name } })),
    ...ports.machineForwards().map((forward) => ({ profileId: forward.profileId ?? active, activity: { kind: 'ssh' as const, deviceId: forward.deviceId, label: [forward.deviceId, forward.remotePort].join(':') } })),
  ].flatMap(({ profileId, activity }): Activity[] => (profileId === undefined ? [] : [{ ...activity, profileId }]));
  if (active === undefined) return machines;
  const profileId = active;
  return [
    ...ports.answering().map((taskId): Activity => ({ kind: 'model-answering', profileId, taskId, label: ports.taskName(taskId) ?? String(taskId) })),
    ...machines,
    ...ports.runningRuns().map((jobId): Activity => ({ kind: 'run-on-gpu', profileId, jobId, label: String(jobId) })),
  ];
}

/** `own`: the registry's list for this area (areaRegistry.ts). */
export function registerActivitySources(registry: Pick<ActivityRegistry, 'add'>, ports: ActivityPorts, own: Disposable[] = []): RegisteredArea<object> {
  own.push({ dispose: registry.add(() => activitiesOf(ports)) });
  return { api: {}, disposables: own };
}
