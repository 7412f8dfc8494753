// A stand-in for the extension host's globalState that reproduces how VS Code keeps it, stepped by the
// test: the extension's whole state is one object; `update` changes it in memory, and a later send carries
// the whole object to the workbench, which stores it and echoes the stored object back before answering;
// the echo *replaces* the extension host's object. So a write made after a send left but before its echo
// came back is lost: the echo wipes it from memory and the next send carries the old object (the pause
// timer that vanished in whole in-host runs, issue 31). `send()` and `echo()` are the two steps; `settle()`
// runs them until nothing is pending.

interface InFlight {
  readonly snapshot: string;
  readonly resolvers: (() => void)[];
}

export class EchoingMemento {
  private value: Record<string, unknown> = {};
  private stored: Record<string, unknown> = {};
  private waiting: (() => void)[] = [];
  private pendingSend = false;
  private readonly inFlight: InFlight[] = [];

  get<T>(key: string): T | undefined {
    const raw = this.value[key];
    return raw === undefined ? undefined : (JSON.parse(JSON.stringify(raw)) as T);
  }

  /** What the workbench stored (what the next start reads). */
  persisted(key: string): unknown {
    return this.stored[key];
  }

  update(key: string, value: unknown): Promise<void> {
    this.value[key] = value;
    this.pendingSend = true;
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The extension host sends its whole object (what `update` scheduled). */
  send(): void {
    if (!this.pendingSend) return;
    this.pendingSend = false;
    this.inFlight.push({ snapshot: JSON.stringify(this.value), resolvers: this.waiting });
    this.waiting = [];
  }

  /** The workbench stores the oldest send, echoes it (replacing the host's object), then answers it. */
  echo(): void {
    const next = this.inFlight.shift();
    if (!next) return;
    this.stored = JSON.parse(next.snapshot) as Record<string, unknown>;
    this.value = JSON.parse(next.snapshot) as Record<string, unknown>;
    for (const resolve of next.resolvers) resolve();
  }

  /** Sends and echoes until nothing is pending, letting awaiting writers run between steps. */
  async settle(): Promise<void> {
    for (let steps = 0; steps < 1000; steps++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.pendingSend) this.send();
      else if (this.inFlight.length > 0) this.echo();
      else return;
    }
    throw new Error('the memento never settled');
  }
}
