// Tasks that already exist when the sandbox starts, so the Tasks view has something to show:
// one Running for two hours (nodes with logs, public URLs) and one Paused.

import type { Device, TaskResource } from '../../../src/core/compute/api';
import type { Catalog } from './catalog';
import type { TaskStore } from './tasks';

const HOUR_MS = 3600_000;

export function seedTasks(catalog: Catalog, tasks: TaskStore): void {
  tasks.create(
    {
      name: 'qwen3-32b-serving',
      points: 2,
      resources: [taskResource(catalog, 'RTX 4090 x 1')],
      services: [
        {
          service_name: 'vllm',
          service_image: 'harbor.suanleme.cn/public-hub/vllm-openai:0.8.5',
          remote_ports: [{ service_port: 8000 }],
          env: 'MODEL=Qwen/Qwen3-32B-AWQ',
          start_script_v2: { command: null, args: [] },
        },
      ],
      pricePerSecond: priceOf(catalog, 'RTX 4090 x 1'),
    },
    { startedAgoMs: 2 * HOUR_MS },
  );
  const paused = tasks.create(
    {
      name: 'comfyui-测试',
      points: 1,
      resources: [taskResource(catalog, 'L40S x 1')],
      services: [
        {
          service_name: 'comfyui',
          service_image: 'harbor.suanleme.cn/public-hub/comfyui:latest',
          remote_ports: [{ service_port: 8188 }],
          env: null,
        },
      ],
      pricePerSecond: priceOf(catalog, 'L40S x 1'),
    },
    { startedAgoMs: 5 * HOUR_MS },
  );
  tasks.pause(paused);
}

function firstOffer(catalog: Catalog, deviceName: string): { device: Device; region: Device['regions'][number] } {
  const device = catalog.devices.find((candidate) => candidate.device_name === deviceName);
  const region = device?.regions[0];
  if (!device || !region) throw new Error(`seed device ${deviceName} is missing from the catalogue`);
  return { device, region };
}

function taskResource(catalog: Catalog, deviceName: string): TaskResource {
  const { region } = firstOffer(catalog, deviceName);
  return { resource: { ...region.mark.resource }, region_name: region.region_name, mark: region.mark.mark, weight: 1 };
}

function priceOf(catalog: Catalog, deviceName: string): number {
  const { region } = firstOffer(catalog, deviceName);
  return region.discount_price ?? region.price ?? 0;
}
