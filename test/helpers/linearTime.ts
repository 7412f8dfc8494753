// A guard against quadratic time: the ratio of the fastest of several runs on an input 8× larger to the
// fastest on the base input. Linear code gives about 8, quadratic about 64; the team's limit is 12.
export const LINEAR_RATIO_LIMIT = 12;

function fastest(run: () => void, repetitions: number): number {
  let best = Infinity;
  for (let index = 0; index < repetitions; index++) {
    const start = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return best;
}

/**
 * A flat copy of a string: `repeat` and `+` build rope strings whose character access costs more the
 * deeper the rope, which would measure V8's rope walking instead of the code under test. Text from the
 * network is flat.
 */
export function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** `make(n)` builds the input, `run(input)` is timed; returns time(8n) / time(n). */
export function growthRatio<T>(n: number, make: (size: number) => T, run: (input: T) => void, repetitions = 7): number {
  const small = make(n);
  const large = make(8 * n);
  fastest(() => run(small), 2); // warm-up
  return fastest(() => run(large), repetitions) / fastest(() => run(small), repetitions);
}
