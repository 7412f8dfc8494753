// Idle tracking of deployments (docs/deployments.md): the time of the last request the extension sent to
// each, and which ones with idle pause switched on have had none for their N minutes. The clock is passed
// in, so tests move time without waiting.

export interface IdleSetting {
  taskId: number;
  minutes: number;
}

export class IdleTracker {
  private readonly last = new Map<number, number>();

  /** A request was sent to the deployment (or it became ready: idle time counts from then). */
  touch(taskId: number, now: number): void {
    this.last.set(taskId, now);
  }

  /** Starts counting from `now` unless a request is already known. */
  watch(taskId: number, now: number): void {
    if (!this.last.has(taskId)) this.last.set(taskId, now);
  }

  lastRequestAt(taskId: number): number | undefined {
    return this.last.get(taskId);
  }

  forget(taskId: number): void {
    this.last.delete(taskId);
  }

  /**
   * Follows the deployments' states: one that stopped answering because it was paused or ended is
   * forgotten, so when it is ready again (recovered) its idle time counts from then, not from the last
   * request before the pause — whoever noticed the pause first (the task list or the idle timer).
   */
  settle(deployments: readonly { taskId: number; state: string }[], now: number): void {
    for (const deployment of deployments) {
      if (deployment.state === 'ready') this.watch(deployment.taskId, now);
      else if (deployment.state === 'paused' || deployment.state === 'ended') this.forget(deployment.taskId);
    }
  }

  /** Ms until the deployment is due (≤ 0: due now); undefined when nothing is known of it. */
  remainingMs(setting: IdleSetting, now: number): number | undefined {
    const at = this.last.get(setting.taskId);
    return at === undefined ? undefined : at + setting.minutes * 60_000 - now;
  }

  /** The deployments with idle pause on whose last request is at least their minutes ago. */
  due(settings: readonly IdleSetting[], now: number): number[] {
    return settings.filter((setting) => (this.remainingMs(setting, now) ?? Infinity) <= 0).map((setting) => setting.taskId);
  }
}
