// The documented types of a deployment body's optional fields that the sandbox keeps or ignores
// (docs/sandbox-rules.md): the platform's typed server refuses a wrong type even where it then drops
// the value, so a client sending one must fail here too (C999 naming the field).

import { invalidParam } from './codes';
import { asArray, asObject, optionalString, requireInt, type JsonObject } from './params';

const SCALING_STRATEGIES = ['queue_delay', 'queue_length'];
const AUTOSCALING_INTS = ['min_workers', 'max_workers', 'idle_timeout', 'execution_timeout'] as const;

/** `repository_username` / `repository_password`: string or null (write-only; docs/sandbox-rules.md). */
export function checkRepositoryFields(body: JsonObject): void {
  optionalString(body, 'repository_username');
  optionalString(body, 'repository_password');
}

/** `dynamic_pod_strategy`: `switch` a boolean, the counts and timeouts integers, `benchmark[]` items with a documented `scaling_strategy` (docs/sandbox-rules.md). */
export function checkAutoscaling(value: JsonObject): void {
  const path = 'dynamic_pod_strategy';
  if (value.switch !== undefined && value.switch !== null && typeof value.switch !== 'boolean') throw invalidParam(`${path}.switch`, 'expected a boolean');
  for (const key of AUTOSCALING_INTS) {
    if (value[key] !== undefined && value[key] !== null) requireInt(value, key, { min: 0 }, `${path}.${key}`);
  }
  if (value.benchmark === undefined || value.benchmark === null) return;
  asArray(`${path}.benchmark`, value.benchmark).forEach((item, index) => {
    const itemPath = `${path}.benchmark[${index}]`;
    const strategy = asObject(itemPath, item).scaling_strategy;
    if (!SCALING_STRATEGIES.includes(String(strategy))) throw invalidParam(`${itemPath}.scaling_strategy`, `must be one of ${SCALING_STRATEGIES.join(', ')}`);
  });
}

/** A service's `service_id` (number or null; update sends detail's back) and each `remote_ports[].url` (string or null, detail's public URL). */
export function checkServiceIds(object: JsonObject, path: string): void {
  if (object.service_id !== undefined && object.service_id !== null) requireInt(object, 'service_id', { min: 1 }, `${path}.service_id`);
  if (!Array.isArray(object.remote_ports)) return;
  object.remote_ports.forEach((port, index) => {
    if (typeof port === 'object' && port !== null) optionalString(port as JsonObject, 'url', `${path}.remote_ports[${index}].url`);
  });
}
