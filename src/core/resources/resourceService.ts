// GPU and CPU offers on the platform: the only caller of the client for resource.search (read-only,
// so nothing to wake).

import type { Paged } from '../compute/wire';
import { send, type ClientSource } from '../state/servicePorts';
import type { Device } from './operations';

/** Deployment offers of these device types ('GpuDevice', 'GpuDevice,CpuDevice', …). */
export type DeviceQuery = { task_type: string; device_type: string };

export class ResourceService {
  constructor(private readonly client: ClientSource) {}

  search(query: DeviceQuery, signal?: AbortSignal): Promise<Paged<Device>> {
    return send(this.client, 'resource.search', query, signal);
  }

  /** Every deployment offer, GPU and CPU (prices, the task wizard's choices). */
  deployments(signal?: AbortSignal): Promise<Paged<Device>> {
    return this.search({ task_type: 'Deployment', device_type: 'GpuDevice,CpuDevice' }, signal);
  }

  /** Deployment offers with GPUs only (jobs, model deployments). */
  gpuDeployments(signal?: AbortSignal): Promise<Paged<Device>> {
    return this.search({ task_type: 'Deployment', device_type: 'GpuDevice' }, signal);
  }
}
