// Which notebooks a kernel controller holds, and which controller acts for a notebook (docs/notebooks.md,
// "One kernel per notebook"). VS Code selects one controller per notebook and says so only through each
// controller's selection events, in no promised order: a controller it deselects lets its binding go (the
// connection ends, the kernel keeps running where it runs), and the status bar, Restart and interrupt ask
// only the controller selected now. Plain Node: the editor layer feeds it VS Code's events.

/** A binding's kernel connection, once started. */
export interface ReleasableBinding {
  kernel: Promise<{ dispose(): void }> | undefined;
}

/** One controller's notebooks (keyed by notebook URI) and their bindings. */
export class NotebookBindings<B extends ReleasableBinding> {
  private readonly held = new Map<string, B>();

  /** `onRelease`: what else ends with a released binding (a tunnel) and who redraws. */
  constructor(private readonly onRelease: (binding: B, key: string) => void = () => undefined) {}

  get size(): number {
    return this.held.size;
  }

  get(key: string): B | undefined {
    return this.held.get(key);
  }

  has(key: string): boolean {
    return this.held.has(key);
  }

  /** Binds `key`, releasing the binding it had. */
  set(key: string, binding: B): void {
    if (this.held.get(key) !== binding) this.release(key);
    this.held.set(key, binding);
  }

  entries(): IterableIterator<[string, B]> {
    return this.held.entries();
  }

  values(): IterableIterator<B> {
    return this.held.values();
  }

  /** Removes the binding without ending anything (the caller ends it its own way: Shut Down). */
  take(key: string): B | undefined {
    const binding = this.held.get(key);
    this.held.delete(key);
    return binding;
  }

  /** Lets the notebook's binding go: the connection ends, the kernel keeps running. True when there was one. */
  release(key: string): boolean {
    const binding = this.take(key);
    if (!binding) return false;
    void binding.kernel?.then((kernel) => kernel.dispose(), () => undefined);
    this.onRelease(binding, key);
    return true;
  }

  releaseAll(): void {
    for (const key of [...this.held.keys()]) this.release(key);
  }
}

/** Which source (controller) VS Code has selected for each notebook, from its selection events alone. */
export class KernelSelection<S> {
  private readonly chosen = new Map<string, S>();

  /**
   * VS Code (de)selected `source` for `notebook`. A deselection after another source's selection (the
   * events of one switch come in either order) leaves that other source selected.
   */
  change(notebook: string, source: S, selected: boolean): void {
    if (selected) this.chosen.set(notebook, source);
    else if (this.chosen.get(notebook) === source) this.chosen.delete(notebook);
  }

  /** The source selected for `notebook` now, if any: the only one whose kernel the notebook's status and Restart use. */
  of(notebook: string): S | undefined {
    return this.chosen.get(notebook);
  }

  /** The notebook closed. */
  forget(notebook: string): void {
    this.chosen.delete(notebook);
  }
}
