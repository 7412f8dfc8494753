// The sandbox's wall clock: real time plus an offset that tests move to simulate a client whose
// clock is skewed. It drives the timestamp window and every Date header. Task progress (Pending →
// Running, growing logs) uses real elapsed time instead, so moving the clock never jumps a task.

export interface SandboxClock {
  /** Wall-clock ms as the sandbox sees it (real time + offset). */
  now(): number;
  /** Real elapsed-time source for lifecycles; not affected by the offset. */
  realNow(): number;
  readonly offsetMs: number;
  setOffset(ms: number): void;
}

export function createClock(): SandboxClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    realNow: () => Date.now(),
    get offsetMs() {
      return offsetMs;
    },
    setOffset(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`clock offset must be a finite number of ms, got ${String(ms)}`);
      offsetMs = Math.trunc(ms);
    },
  };
}
