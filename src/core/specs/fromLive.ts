// A spec file from a live task ("Save as Spec File…"): the task in readable form, env values that
// look like credentials turned into SecretStorage references (the caller stores the values under
// those names so a plan of the saved file shows no difference), never written inline.

import type { TaskDetail } from '../compute/api';
import { looksSecret } from './secrets';
import { liveTaskSpec } from './taskBody';
import type { EnvValue, TaskServiceSpec, TaskSpec } from './types';

export interface SavedSpec {
  spec: TaskSpec;
  /** Values to store in SecretStorage under the referenced names (never written to the file). */
  secrets: { name: string; value: string }[];
  /** Live fields a spec cannot say (an update from this file would reset them). */
  dropped: string[];
}

/** A SecretStorage name for a task's env variable: "<task>-<VAR>", restricted to the allowed characters. */
export function secretNameFor(taskName: string, variable: string): string {
  const base = `${taskName}-${variable}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (base || 'secret').slice(0, 128);
}

export function specFromTask(detail: TaskDetail, profileLabel: string | undefined, schemaUrl?: string): SavedSpec {
  const live = liveTaskSpec(detail);
  const secrets: SavedSpec['secrets'] = [];
  const dropped: string[] = [];
  if (live.other) dropped.push(...Object.keys(live.other));
  const services = (live.services as (TaskServiceSpec & { other?: Record<string, unknown> })[]).map((service, index) => {
    const { other, ...rest } = service;
    if (other) dropped.push(...Object.keys(other).map((key) => `services[${index}].${key}`));
    if (!rest.env) return rest;
    const env: Record<string, EnvValue> = {};
    for (const [name, value] of Object.entries(rest.env)) {
      if (typeof value === 'string' && looksSecret(name, value)) {
        const secret = secretNameFor(detail.task_name, name);
        secrets.push({ name: secret, value });
        env[name] = { secret };
      } else env[name] = value;
    }
    return { ...rest, env };
  });
  const spec: TaskSpec = {
    ...(schemaUrl ? { $schema: schemaUrl } : {}),
    kind: 'task',
    ...(profileLabel ? { profile: profileLabel } : {}),
    taskId: detail.task_id,
    name: live.name,
    nodes: live.nodes,
    resource: live.resource,
    ...(live.crossRegion ? { crossRegion: true } : {}),
    ...(live.dedicatedCpu ? { dedicatedCpu: true } : {}),
    ...(live.loadBalance ? { loadBalance: live.loadBalance } : {}),
    ...(live.autoscaling ? { autoscaling: live.autoscaling } : {}),
    services,
  };
  return { spec, secrets, dropped };
}
