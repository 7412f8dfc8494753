// A notebook's kernel bindings and VS Code's selection (src/core/notebooks/notebookBindings.ts): only the
// controller selected now acts for a notebook, whatever order one switch's events come in; a deselected
// controller's binding is released (its connection ends, nothing else of it is kept), a replaced binding too.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KernelSelection, NotebookBindings } from '../../../src/core/notebooks/notebookBindings';

const NB = 'file:///work/a.ipynb';
const OTHER = 'file:///work/b.ipynb';

function binding(name: string): { name: string; kernel: Promise<{ dispose(): void }> | undefined; disposed: () => number } {
  let disposed = 0;
  return { name, kernel: Promise.resolve({ dispose: () => void disposed++ }), disposed: () => disposed };
}

/** Lets the kernel promises' dispose callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('notebooks: kernel selection', () => {
  it('task kernel then machine kernel: the machine kernel acts, with the deselection before or after the selection', () => {
    for (const order of ['deselect first', 'select first'] as const) {
      const selection = new KernelSelection<string>();
      selection.change(NB, 'task', true);
      assert.equal(selection.of(NB), 'task');
      if (order === 'deselect first') {
        selection.change(NB, 'task', false);
        selection.change(NB, 'machine', true);
      } else {
        selection.change(NB, 'machine', true);
        selection.change(NB, 'task', false);
      }
      assert.equal(selection.of(NB), 'machine', order);
    }
  });

  it('back to the task kernel, then no Compute kernel at all: nothing of ours acts', () => {
    const selection = new KernelSelection<string>();
    selection.change(NB, 'task', true);
    selection.change(NB, 'machine', true);
    selection.change(NB, 'task', false);
    selection.change(NB, 'task', true);
    selection.change(NB, 'machine', false);
    assert.equal(selection.of(NB), 'task');
    selection.change(NB, 'task', false);
    assert.equal(selection.of(NB), undefined, 'another extension\'s kernel picked');
  });

  it('is per notebook, and a closed notebook is forgotten', () => {
    const selection = new KernelSelection<string>();
    selection.change(NB, 'task', true);
    selection.change(OTHER, 'machine', true);
    assert.equal(selection.of(NB), 'task');
    assert.equal(selection.of(OTHER), 'machine');
    selection.forget(NB);
    assert.equal(selection.of(NB), undefined);
    assert.equal(selection.of(OTHER), 'machine');
  });
});

describe('notebooks: a controller\'s bindings', () => {
  it('release ends the connection once, runs the release hook and forgets the notebook', async () => {
    const released: string[] = [];
    const bindings = new NotebookBindings<ReturnType<typeof binding>>((held, key) => released.push(`${held.name}@${key}`));
    const task = binding('task');
    bindings.set(NB, task);
    assert.equal(bindings.release(NB), true);
    assert.equal(bindings.release(NB), false, 'nothing left to release');
    await settle();
    assert.equal(task.disposed(), 1);
    assert.deepEqual(released, [`task@${NB}`]);
    assert.equal(bindings.get(NB), undefined);
    assert.equal(bindings.size, 0);
  });

  it('binding a notebook again releases its earlier binding; setting the same one again does not', async () => {
    const released: string[] = [];
    const bindings = new NotebookBindings<ReturnType<typeof binding>>((held) => released.push(held.name));
    const first = binding('first');
    const second = binding('second');
    bindings.set(NB, first);
    bindings.set(NB, first);
    bindings.set(NB, second);
    await settle();
    assert.deepEqual(released, ['first']);
    assert.equal(first.disposed(), 1);
    assert.equal(second.disposed(), 0);
    assert.equal(bindings.get(NB), second);
  });

  it('take removes without ending anything; releaseAll ends every one; a binding with no kernel yet is released too', async () => {
    const released: string[] = [];
    const bindings = new NotebookBindings<ReturnType<typeof binding>>((held) => released.push(held.name));
    const shut = binding('shut');
    const starting = { ...binding('starting'), kernel: undefined };
    const other = binding('other');
    bindings.set(NB, shut);
    bindings.set(OTHER, other);
    assert.equal(bindings.take(NB), shut);
    bindings.set(NB, starting);
    bindings.releaseAll();
    await settle();
    assert.equal(shut.disposed(), 0, 'taken, not ended');
    assert.equal(other.disposed(), 1);
    assert.deepEqual(released.sort(), ['other', 'starting']);
    assert.equal(bindings.size, 0);
  });

  it('a kernel whose start failed is released without an unhandled rejection', async () => {
    const bindings = new NotebookBindings<{ kernel: Promise<{ dispose(): void }> | undefined }>();
    const failed = Promise.reject(new Error('no server'));
    failed.catch(() => undefined);
    bindings.set(NB, { kernel: failed });
    assert.equal(bindings.release(NB), true);
    await settle();
    assert.equal(bindings.has(NB), false);
  });
});
