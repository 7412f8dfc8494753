// Guards against quadratic time that never compare with an absolute time: the ratio of the time on an
// input 8× larger to the time on the base input. Linear code gives about 8, quadratic about 64; the
// team's limit is 12. assertLinearTime asserts it, on CPU time.
import assert from 'node:assert/strict';

export const LINEAR_RATIO_LIMIT = 12;

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
function bestTime(run: () => void, repeats: number): number {
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
  /** Size of the small input (the large one is 8n). Keep 8n within a few MB: beyond, caches skew the ratio. */
  n: number;
  /** Largest ratio t(8n) / t(n) accepted (default 12). */
  maxRatio?: number;
  /** The small input is worked on repeatedly until one measurement takes at least this long (default 5 ms). */
  minMs?: number;
  repeats?: number;
}

/**
 * Asserts that `work(input(n))` scales linearly: t(8n) / t(n) ≤ maxRatio. `input` builds the (adversarial)
 * input of a size outside the timing; `work` is what is timed (the same number of times at both sizes).
 */
export function assertLinearTime<T>(label: string, input: (n: number) => T, work: (value: T) => unknown, options: LinearTimeOptions): void {
  const { n, maxRatio = LINEAR_RATIO_LIMIT, minMs = 5, repeats = 5 } = options;
  const small = input(n);
  const large = input(8 * n);
  let loops = 1;
  const timed = (value: T): number =>
    bestTime(() => {
      for (let index = 0; index < loops; index++) work(value);
    }, repeats);
  work(small); // warm-up: compile before timing
  let smallMs = timed(small);
  while (smallMs < minMs && loops < 1 << 16) {
    loops *= Math.min(16, Math.max(2, Math.ceil(minMs / Math.max(smallMs, 0.01))));
    smallMs = timed(small);
  }
  const largeMs = timed(large);
  const ratio = largeMs / Math.max(smallMs, 0.001);
  assert.ok(
    ratio <= maxRatio,
    `${label}: t(8n) / t(n) = ${ratio.toFixed(1)} (n = ${n}, ${loops}×: ${smallMs.toFixed(2)} ms, 8n: ${largeMs.toFixed(2)} ms); linear ≈ 8, quadratic ≈ 64`,
  );
}
