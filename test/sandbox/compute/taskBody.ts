// Validation of the task create body (docs/platform.md): task_name, points, resources[] whose
// mark the sandbox issued, services[] with name, image and ports. Unknown fields are ignored, as
// the platform's optional ones (load_balance, health_checks, …) are not modelled here.

import type { ServiceSpec, TaskResource } from '../../../src/core/compute/api';
import type { IssuedMark } from './catalog';
import { invalidParam } from './codes';
import { asArray, asObject, optionalString, requireInt, requireString, type JsonObject } from './params';

export const MAX_POINTS = 20;

export interface TaskCreateInput {
  name: string;
  points: number;
  resources: TaskResource[];
  services: ServiceSpec[];
  pricePerSecond: number;
}

export function parseTaskCreate(body: JsonObject, marks: ReadonlyMap<string, IssuedMark>): TaskCreateInput {
  const name = requireString(body, 'task_name');
  if (name.length > 64) throw invalidParam('task_name', `must be at most 64 characters, got ${name.length}`);
  const taskType = body.task_type;
  if (taskType !== undefined && taskType !== null && taskType !== 'Deployment') throw invalidParam('task_type', 'must be "Deployment" or null');
  // The platform defaults points to 1 when null or absent.
  const points = body.points === undefined || body.points === null ? 1 : requireInt(body, 'points', { min: 1, max: MAX_POINTS });

  const resourceItems = asArray('resources', body.resources ?? missing('resources'));
  if (resourceItems.length === 0) throw invalidParam('resources', 'must hold at least one resource from resource search');
  let pricePerSecond = 0;
  const resources = resourceItems.map((item, index): TaskResource => {
    const path = `resources[${index}]`;
    const object = asObject(path, item);
    const mark = requireString(object, 'mark', `${path}.mark`);
    const issued = marks.get(mark);
    if (!issued) throw invalidParam(`${path}.mark`, 'unknown mark: copy regions[].mark.mark from a fresh resource search');
    if (issued.inventory === 0) throw invalidParam(`${path}.mark`, `${issued.resource.device_name} is sold out in ${issued.resource.region}`);
    if (object.resource !== undefined && object.resource !== null) {
      const resource = asObject(`${path}.resource`, object.resource);
      if (resource.device_name !== issued.resource.device_name || resource.region !== issued.resource.region) {
        throw invalidParam(`${path}.resource`, 'does not match the resource its mark was issued for');
      }
    }
    pricePerSecond = Math.max(pricePerSecond, issued.pricePerSecond);
    return { resource: { ...issued.resource }, region_name: issued.regionName, mark, weight: 1 };
  });

  const serviceItems = asArray('services', body.services ?? missing('services'));
  if (serviceItems.length === 0) throw invalidParam('services', 'must hold at least one service');
  const services = serviceItems.map((item, index) => parseService(asObject(`services[${index}]`, item), `services[${index}]`));
  return { name, points, resources, services, pricePerSecond };
}

function parseService(object: JsonObject, path: string): ServiceSpec {
  const service: ServiceSpec = {
    service_name: requireString(object, 'service_name', `${path}.service_name`),
    service_image: requireString(object, 'service_image', `${path}.service_image`),
    remote_ports: asArray(`${path}.remote_ports`, object.remote_ports ?? missing(`${path}.remote_ports`)).map((port, index) => {
      const portPath = `${path}.remote_ports[${index}]`;
      return { service_port: requireInt(asObject(portPath, port), 'service_port', { min: 1, max: 65535 }, `${portPath}.service_port`) };
    }),
    env: optionalString(object, 'env', `${path}.env`) ?? null,
  };
  if (object.start_script_v2 !== undefined && object.start_script_v2 !== null) {
    const scriptPath = `${path}.start_script_v2`;
    const script = asObject(scriptPath, object.start_script_v2);
    const args = asArray(`${scriptPath}.args`, script.args ?? []);
    args.forEach((arg, index) => {
      if (typeof arg !== 'string') throw invalidParam(`${scriptPath}.args[${index}]`, 'expected a string');
    });
    service.start_script_v2 = { command: optionalString(script, 'command', `${scriptPath}.command`) ?? null, args: args as string[] };
  }
  return service;
}

function missing(path: string): never {
  throw invalidParam(path, 'is required');
}
