// Guards against super-linear time that never compare with an absolute time and hold on a busy machine
// (CI is a shared 2-core machine).
//
// Two kinds, the first preferred wherever the code permits:
// - assertLinearWork COUNTS the work done (calls, property reads, map lookups through an instrumented input):
//   no clock at all, so no load can change the result. Linear gives factor (32), quadratic factor² (1,024).
// - assertLinearTime compares the CPU time of a run on an input `factor`× larger (default 32) with a run on
//   the base input (the large input is run 1/factor as often, so both readings take about as long). Linear gives about 32, quadratic about 1,024; the limit (200) sits far from both (6× above
//   linear, 5× below quadratic). Each size is measured as the least of several runs in this process's CPU
//   time, and a failing measurement is taken again (up to `attempts` times) before the guard fails: a
//   quadratic fails every attempt, a disturbed linear one does not.
import assert from 'node:assert/strict';

/** How much larger the large input is than the small one. */
export const LINEAR_FACTOR = 32;

/** Largest accepted ratio at LINEAR_FACTOR: linear ≈ 32, quadratic ≈ 1,024. */
export const LINEAR_MAX_RATIO = 200;

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
  /** Large input size / small input size (default 32). */
  factor?: number;
  /** Largest ratio t(factor × n) / t(n) accepted (default 200 at factor 32, else factor^1.53: between factor and factor²). */
  maxRatio?: number;
  /** The small input is worked on repeatedly until one measurement takes at least this long (default 2 ms). */
  minMs?: number;
  /** Runs per measurement, the best counts (default 5). */
  repeats?: number;
  /** Measurements before the guard fails (default 3). */
  attempts?: number;
}

/**
 * Asserts that `work(input(n))` scales linearly: t(factor × n) / t(n) ≤ maxRatio, measured again before
 * failing. `input` builds the (adversarial) input of a size outside the timing; `work` is what is timed
 * (the same number of times at both sizes). Prefer assertLinearWork where the work can be counted.
 */
export function assertLinearTime<T>(label: string, input: (n: number) => T, work: (value: T) => unknown, options: LinearTimeOptions): void {
  const { n, factor = LINEAR_FACTOR, minMs = 2, repeats = 5, attempts = 3 } = options;
  const maxRatio = options.maxRatio ?? defaultMaxRatio(factor);
  const small = input(n);
  const large = input(factor * n);
  let loops = 1;
  const timed = (value: T, runs = repeats): number =>
    bestCpuMs(() => {
      for (let index = 0; index < loops; index++) work(value);
    }, runs);
  /**
   * The large input up to `largeLoops` times per run, in ms per call, the least of up to `repeats` runs. A
   * run stops once it is past `limitMs` (a quadratic would take minutes; the calls made so far count), and
   * the runs stop at the first one within `passMs` per call.
   */
  const timedLarge = (largeLoops: number, limitMs: number, passMs: number): number => {
    let best = Infinity;
    for (let round = 0; round < repeats && best > passMs; round++) {
      const started = process.cpuUsage();
      let usedMs = 0;
      let calls = 0;
      while (calls < largeLoops && usedMs <= limitMs) {
        work(large);
        calls++;
        // The clock is read after 1, 2, 4, … calls and the last: a read costs about a microsecond, which
        // read after every call would swamp cheap work (a constant-time call read ~200× "slower" at 32n).
        if ((calls & (calls - 1)) !== 0 && calls < largeLoops) continue;
        const used = process.cpuUsage(started);
        usedMs = (used.user + used.system) / 1000;
      }
      best = Math.min(best, usedMs / calls);
    }
    return best;
  };
  work(small); // warm-up: compile before timing (not the large input: a quadratic would take minutes)
  const seen: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    // Calibrated on single runs, aiming a little above minMs, until the best of `repeats` reaches minMs
    // too: code compiled during the first runs gets faster, and a calibration on its slow first runs
    // would leave the small reading below minMs, where the floor hides a quadratic.
    const grow = (ms: number): number => Math.ceil(loops * Math.min(16, Math.max(1.25, (1.25 * minMs) / Math.max(ms, 0.01))));
    let smallMs = 0;
    for (;;) {
      let onceMs = timed(small, 1);
      while (onceMs < minMs && loops < 1 << 16) {
        loops = grow(onceMs);
        onceMs = timed(small, 1);
      }
      smallMs = timed(small);
      if (smallMs >= minMs || loops >= 1 << 16) break;
      loops = grow(smallMs);
    }
    // Work too cheap to reach minMs even at the most loops (constant-time work, e.g. a cut to a fixed
    // length) is below the CPU clock's resolution: it counts as minMs, or the ratio would be noise.
    const floorMs = (): number => Math.max(smallMs, minMs);
    // The large input is run loops / factor times (at least once): linear work then takes about as long
    // as the small measurement, so both are read at the same resolution and the guard costs a few minMs
    // instead of factor × minMs; the ratio compares the time per run.
    const largeLoops = Math.max(1, Math.ceil(loops / factor));
    const limitPerCall = (): number => (maxRatio * floorMs()) / loops;
    const largePerCall = timedLarge(largeLoops, 1.5 * limitPerCall() * largeLoops, limitPerCall());
    // The small input once more after the large one: the least disturbed of both readings counts.
    smallMs = Math.min(smallMs, timed(small));
    const ratio = largePerCall / (floorMs() / loops);
    if (ratio <= maxRatio) return;
    seen.push(`${ratio.toFixed(1)} (${loops}× n: ${smallMs.toFixed(2)} ms, ${factor}n: ${largePerCall.toFixed(2)} ms a run)`);
  }
  assert.fail(`${label}: t(${factor}n) / t(n) above ${maxRatio} in ${attempts} measurements: ${seen.join('; ')} (n = ${n}); linear ≈ ${factor}, quadratic ≈ ${factor * factor}`);
}

/**
 * The limit for a ratio of sizes `factor`: 200 at the default 32, else factor^1.53 (about the geometric
 * middle of linear, factor, and quadratic, factor²).
 */
export function defaultMaxRatio(factor: number): number {
  return factor === LINEAR_FACTOR ? LINEAR_MAX_RATIO : Math.round(factor ** 1.53);
}

/**
 * Asserts that `count(input(k))` grows linearly by counting the work (no clock at all): `count` runs the
 * code on the input and returns the units of work it did (calls, property reads, lookups, counted through
 * an instrumented input such as `countReads`). count(factor × n) / count(n) ≤ maxRatio (default 200 at
 * factor 32): linear ≈ factor, quadratic ≈ factor². Counting is deterministic, so nothing is re-measured.
 */
export function assertLinearWork<T>(
  label: string,
  input: (n: number) => T,
  count: (value: T) => number,
  options: { n: number; factor?: number; maxRatio?: number },
): void {
  const { n, factor = LINEAR_FACTOR } = options;
  const maxRatio = options.maxRatio ?? defaultMaxRatio(factor);
  const small = count(input(n));
  assert.ok(small > 0, `${label}: no work counted at n = ${n}: the instrument does not see the code under test`);
  const large = count(input(factor * n));
  const ratio = large / small;
  assert.ok(ratio <= maxRatio, `${label}: work(${factor}n) / work(n) = ${ratio.toFixed(1)} (${small} → ${large}, n = ${n}) above ${maxRatio}; linear ≈ ${factor}, quadratic ≈ ${factor * factor}`);
}

/** A tally that instruments share: `units` is the work counted so far. */
export interface WorkTally {
  units: number;
}

/**
 * A read-only view of `value` (objects and arrays, to any depth) that adds one unit to `tally` for every
 * property read, including array indexing, `length` and iteration. Code that walks its input once reads
 * each property a fixed number of times; code that searches the input for every element reads it n² times.
 */
export function countReads<T>(value: T, tally: WorkTally): T {
  const views = new WeakMap<object, unknown>();
  const wrap = (target: unknown): unknown => {
    if (target === null || typeof target !== 'object') return target;
    const known = views.get(target);
    if (known) return known;
    const view = new Proxy(target, {
      get(object, key, receiver) {
        tally.units++;
        const found: unknown = Reflect.get(object, key, receiver);
        return typeof found === 'function' ? found : wrap(found);
      },
      has(object, key) {
        tally.units++;
        return Reflect.has(object, key);
      },
    });
    views.set(target, view);
    return view;
  };
  return wrap(value) as T;
}

/**
 * A Map that adds one unit to `tally` for every lookup and for every entry iterated: a Map given as input
 * (e.g. the memory of an earlier pass) that is searched linearly per element shows up as n² units.
 */
export class CountingMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]>, private readonly tally: WorkTally) {
    super(entries);
  }
  override get(key: K): V | undefined {
    this.tally.units++;
    return super.get(key);
  }
  override has(key: K): boolean {
    this.tally.units++;
    return super.has(key);
  }
  override *entries(): MapIterator<[K, V]> {
    for (const entry of super.entries()) {
      this.tally.units++;
      yield entry;
    }
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }
  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }
  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}

/**
 * Runs `run` while counting the characters that string scans and copies touch: `indexOf` (the span
 * searched), `slice` and `Array.prototype.join` (the length produced). For code that scans text with
 * these (a line splitter, say), rescanning or recopying what it already saw shows up as n² characters.
 * The built-ins are put back before this returns, also when `run` throws.
 */
export function countStringWork(run: () => unknown): number {
  let units = 0;
  const { indexOf, slice } = String.prototype;
  const { join } = Array.prototype;
  String.prototype.indexOf = function (this: string, search: string, from?: number): number {
    const start = Math.max(0, Math.min(from ?? 0, this.length));
    const found = indexOf.call(this, search, start);
    units += (found === -1 ? this.length : found + search.length) - start;
    return found;
  };
  String.prototype.slice = function (this: string, start?: number, end?: number): string {
    const result = slice.call(this, start, end);
    units += result.length;
    return result;
  };
  Array.prototype.join = function (this: unknown[], separator?: string): string {
    const result = join.call(this, separator);
    units += result.length;
    return result;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = indexOf;
    String.prototype.slice = slice;
    Array.prototype.join = join;
  }
  return units;
}
