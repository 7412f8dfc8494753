// Requests in flight per key (a deployed model answering: docs/money.md, "What counts as active"). Each
// start hands back its own end, which counts once however often it is called, so a reply that ends twice
// (finished, then failed) never hides another one still answering.

export class InFlight<Key> {
  private readonly counts = new Map<Key, number>();

  start(key: Key): () => void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }

  /** Keys with at least one request in flight now. */
  keys(): Key[] {
    return [...this.counts.keys()];
  }
}
