// xorshift32: a small seedable generator, the same sequence on every machine, for corpora and cuts
// that tests and benchmarks must reproduce exactly.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
