// A controllable clock and timer queue for the task watcher: time moves only when a test says so.

export class FakeTime {
  now = Date.UTC(2026, 10, 24, 4);
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;

  setTimer = (callback: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.push({ at: this.now + ms, callback, id });
    return id;
  };

  clearTimer = (handle: unknown): void => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };

  get pending(): number {
    return this.timers.length;
  }

  /** Delay of the next timer from now, or undefined when none is scheduled. */
  get nextDelay(): number | undefined {
    const next = this.timers.reduce<number | undefined>((min, timer) => (min === undefined || timer.at < min ? timer.at : min), undefined);
    return next === undefined ? undefined : next - this.now;
  }

  /** Moves time forward by `ms`, firing due timers in order; awaits the async work each one starts. */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > until) break;
      this.timers.shift();
      this.now = due.at;
      due.callback();
      await settle();
    }
    this.now = until;
  }
}

/** Lets promise chains (the watcher's awaited ports) run to completion. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
