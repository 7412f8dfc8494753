// A minimal typed event, shaped like the editor's (subscribe → disposable), so the chat domain can be
// observed by a panel, a language-model provider or a test without depending on any host.

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => { dispose(): void };

export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
