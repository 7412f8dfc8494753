// An in-memory stand-in for VS Code's globalState (vscode.Memento) for unit tests of the stored-state
// code: values are copied as JSON in and out, as a real Memento stores them, so a test cannot pass by
// sharing an object with the store. `interleave` makes each write yield first, as a real Memento
// persists asynchronously, so racing writers really interleave.

export class MemoryMemento {
  readonly values = new Map<string, unknown>();

  constructor(private readonly options: { interleave?: boolean } = {}) {}

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (JSON.parse(JSON.stringify(this.values.get(key))) as T) : fallback;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (this.options.interleave) await new Promise((resolve) => setImmediate(resolve));
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}
