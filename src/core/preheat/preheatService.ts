// Image preheats on the platform: the only caller of the client for preheat.regions, preheat.create,
// preheat.detail and preheat.stop (the store alone lists them). Every change wakes the store once.

import { NO_WAKE, send, type ClientSource, type WakeStore } from '../state/servicePorts';
import type { PreheatCreateBody, PreheatTask } from './operations';

export class ImagePreheatService {
  constructor(
    private readonly client: ClientSource,
    private readonly wake: WakeStore = NO_WAKE,
  ) {}

  async regions(signal?: AbortSignal): Promise<{ region: string; region_name: string }[]> {
    const { regions } = await send(this.client, 'preheat.regions', {}, signal);
    return regions;
  }

  async create(body: PreheatCreateBody, signal?: AbortSignal): Promise<number> {
    const { task_id: taskId } = await send(this.client, 'preheat.create', body, signal);
    await this.wake();
    return taskId;
  }

  /** One preheat now (null once the platform no longer knows it). */
  async detail(taskId: number, signal?: AbortSignal): Promise<PreheatTask | null> {
    return send(this.client, 'preheat.detail', { task_id: taskId }, signal);
  }

  async stop(taskId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'preheat.stop', { task_id: taskId }, signal);
    await this.wake();
  }
}
