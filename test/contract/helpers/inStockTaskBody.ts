// A task create body on the first GPU region the sandbox has in stock, one node, with the service given:
// what the contract tests create a task from.

import assert from 'node:assert/strict';
import type { ComputeClient, Device, Paged, TaskCreateBody } from '../../../src/core/compute/api';

type Service = TaskCreateBody['services'][number];

export async function inStockTaskBody(client: ComputeClient, name: string, service: Service): Promise<TaskCreateBody> {
  const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  assert.ok(region, 'the sandbox offers a region with inventory');
  return {
    task_name: name,
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [service],
  };
}
