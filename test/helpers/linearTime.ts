// Guards against super-linear time that never compare with an absolute time and hold on a busy machine
// (CI is a shared 2-core machine): the ratio of the CPU time on an input `factor`× larger (default 16) to
// the time on the base input. Linear code gives about `factor` (16), quadratic about factor² (256); the
// limit sits in between at 4 × factor (64), a margin of 4× on both sides. A failing measurement is taken
// again (up to `attempts` times) before the guard fails: a quadratic fails every attempt, a disturbed
// linear one does not.
import assert from 'node:assert/strict';

/** How much larger the large input is than the small one. */
export const LINEAR_FACTOR = 16;

/**
 * A flat copy of a string: `repeat` and `+` build rope strings whose character access costs more the
 * deeper the rope, which would measure V8's rope walking instead of the code under test. Text from the
 * network is flat.
 */
export function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * Best (least disturbed) of a few runs, in milliseconds of this process's CPU time: on a loaded machine a
 * long run is preempted more often than a short one, which skews wall-clock ratios; CPU time is not.
 */
export function bestCpuMs(run: () => void, repeats: number): number {
  let best = Infinity;
  for (let index = 0; index < repeats; index++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

export interface LinearTimeOptions {
  /** Size of the small input (the large one is factor × n). Keep the large one within a few MB. */
  n: number;
  /** Large input size / small input size (default 16). */
  factor?: number;
  /** Largest ratio t(factor × n) / t(n) accepted (default 4 × factor: linear ≈ factor, quadratic ≈ factor²). */
  maxRatio?: number;
  /** The small input is worked on repeatedly until one measurement takes at least this long (default 5 ms). */
  minMs?: number;
  /** Runs per measurement, the best counts (default 5). */
  repeats?: number;
  /** Measurements before the guard fails (default 3). */
  attempts?: number;
}

/**
 * Asserts that `work(input(n))` scales linearly: t(factor × n) / t(n) ≤ maxRatio, measured again before
 * failing. `input` builds the (adversarial) input of a size outside the timing; `work` is what is timed
 * (the same number of times at both sizes).
 */
export function assertLinearTime<T>(label: string, input: (n: number) => T, work: (value: T) => unknown, options: LinearTimeOptions): void {
  const { n, factor = LINEAR_FACTOR, minMs = 5, repeats = 5, attempts = 3 } = options;
  const maxRatio = options.maxRatio ?? 4 * factor;
  const small = input(n);
  const large = input(factor * n);
  let loops = 1;
  const timed = (value: T): number =>
    bestCpuMs(() => {
      for (let index = 0; index < loops; index++) work(value);
    }, repeats);
  /** Like timed(large), but a run stops once it is past `limitMs` (a quadratic would take minutes). */
  const timedLarge = (limitMs: number): number => {
    let best = Infinity;
    for (let round = 0; round < repeats; round++) {
      const started = process.cpuUsage();
      let usedMs = 0;
      for (let index = 0; index < loops && usedMs <= limitMs; index++) {
        work(large);
        const used = process.cpuUsage(started);
        usedMs = (used.user + used.system) / 1000;
      }
      best = Math.min(best, usedMs);
    }
    return best;
  };
  work(small); // warm-up: compile before timing
  const seen: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    let smallMs = timed(small);
    while (smallMs < minMs && loops < 1 << 16) {
      loops *= Math.min(16, Math.max(2, Math.ceil(minMs / Math.max(smallMs, 0.01))));
      smallMs = timed(small);
    }
    const largeMs = timedLarge(2 * maxRatio * Math.max(smallMs, minMs));
    // The small input once more after the large one: the least disturbed of both readings counts.
    smallMs = Math.min(smallMs, timed(small));
    // Work too cheap to reach minMs even at the most loops (constant-time work, e.g. a cut to a fixed
    // length) is below the CPU clock's resolution: it counts as minMs, or the ratio would be noise.
    const ratio = largeMs / Math.max(smallMs, minMs);
    if (ratio <= maxRatio) return;
    seen.push(`${ratio.toFixed(1)} (${loops}× n: ${smallMs.toFixed(2)} ms, ${factor}n: ${largeMs.toFixed(2)} ms)`);
  }
  assert.fail(`${label}: t(${factor}n) / t(n) above ${maxRatio} in ${attempts} measurements: ${seen.join('; ')} (n = ${n}); linear ≈ ${factor}, quadratic ≈ ${factor * factor}`);
}

/**
 * Asserts that `work(input(k))` does work proportional to k by counting it (no clock at all): `count`
 * returns the units of work done (steps, calls, bytes scanned). count(factor × n) / count(n) ≤ 2 × factor.
 */
export function assertLinearWork<T>(label: string, input: (n: number) => T, count: (value: T) => number, options: { n: number; factor?: number }): void {
  const { n, factor = LINEAR_FACTOR } = options;
  const small = count(input(n));
  const large = count(input(factor * n));
  const ratio = large / Math.max(small, 1);
  assert.ok(ratio <= 2 * factor, `${label}: work(${factor}n) / work(n) = ${ratio.toFixed(1)} (${small} → ${large}); linear ≈ ${factor}`);
}
