// Which notebook used which task and kernel, as kept between sessions (src/core/notebooks/kernelRecords.ts):
// damaged or hostile stored values are dropped, one record per notebook (the newest), the list is bounded.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forgetKernel, kernelRecordOf, MAX_KERNEL_RECORDS, readKernelRecords, rememberKernel, type KernelRecord } from '../../../src/core/notebooks/kernelRecords';
import { PersistedState } from '../../../src/vscode/persistedState';

const record = (notebook: string, at: number, extra: Partial<KernelRecord> = {}): KernelRecord => ({ notebook, profileId: 'p1', taskId: 7, kernelId: '1b2c3d4e-aaaa-bbbb-cccc-000000000001', at, ...extra });

describe('notebooks: remembered kernels', () => {
  it('keeps only valid records, the newest per notebook, newest first', () => {
    const stored: unknown[] = [
      record('file:///a.ipynb', 1),
      record('file:///a.ipynb', 5, { kernelId: 'newer' }),
      record('file:///b.ipynb', 3),
      { ...record('file:///c.ipynb', 2), kernelId: '../../api/kernels' },
      { ...record('file:///d.ipynb', 2), taskId: -1 },
      { ...record('file:///e.ipynb', 2), token: 'never kept' },
      'text',
      null,
      [],
    ];
    const read = readKernelRecords(stored);
    assert.deepEqual(read.map((kept) => [kept.notebook, kept.kernelId]), [
      ['file:///a.ipynb', 'newer'],
      ['file:///b.ipynb', record('', 0).kernelId],
      ['file:///e.ipynb', record('', 0).kernelId],
    ]);
    assert.ok(read.every((kept) => !('token' in kept)), 'no field beyond the record is carried over');
  });

  it('stays bounded whatever is stored', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => record(`file:///n${index}.ipynb`, index));
    assert.equal(readKernelRecords(many).length, MAX_KERNEL_RECORDS);
    let list: KernelRecord[] = [];
    for (let index = 0; index < MAX_KERNEL_RECORDS + 20; index++) list = rememberKernel(list, record(`file:///m${index}.ipynb`, index));
    assert.equal(list.length, MAX_KERNEL_RECORDS);
    assert.equal(list[0]?.notebook, `file:///m${MAX_KERNEL_RECORDS + 19}.ipynb`);
  });

  it('remembers, finds per profile, and forgets a notebook', () => {
    let list = rememberKernel([], record('file:///a.ipynb', 1));
    list = rememberKernel(list, record('file:///a.ipynb', 2, { kernelId: 'second' }));
    assert.equal(list.length, 1);
    assert.equal(kernelRecordOf(list, 'file:///a.ipynb', 'p1')?.kernelId, 'second');
    assert.equal(kernelRecordOf(list, 'file:///a.ipynb', 'other profile'), undefined);
    assert.deepEqual(forgetKernel(list, 'file:///a.ipynb'), []);
  });

  it('is read back through the stored-state table, damaged entries dropped', async () => {
    const memory = new Map<string, unknown>();
    const warnings: string[] = [];
    const state = new PersistedState({ get: (key) => memory.get(key), update: (key, value) => Promise.resolve(void memory.set(key, value)) }, { warn: (message) => warnings.push(message) });
    await state.update('notebookKernels', [record('file:///a.ipynb', 1)]);
    assert.equal(state.get('notebookKernels')[0]?.kernelId, record('', 0).kernelId);
    const [key] = [...memory.keys()];
    memory.set(key ?? '', [record('file:///a.ipynb', 1), { notebook: 3 }]);
    assert.equal(state.get('notebookKernels').length, 1);
    assert.equal(warnings.length, 1);
  });
});
