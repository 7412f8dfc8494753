// The one place NAS volumes are polled (a remote-state store can replace this file): only while a volume
// is Creating, Expanding or Deleting, at the platform's fixed 10 s (docs/nas.md), and never otherwise.

import type { NasVolume } from '../../core/nas/operations';
import { TRANSITIONAL_VOLUME_STATUSES } from '../../core/nas/operations';

export const VOLUME_POLL_MS = 10_000;

export class VolumePolling {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly refresh: () => void,
    private readonly intervalMs = VOLUME_POLL_MS,
  ) {}

  /** Called with each fresh list: schedules one more refresh when something is still changing. */
  update(volumes: readonly NasVolume[]): void {
    this.stop();
    if (!volumes.some((v) => TRANSITIONAL_VOLUME_STATUSES.includes(v.status))) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, this.intervalMs);
  }

  get active(): boolean {
    return this.timer !== undefined;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.stop();
  }
}
