// Which notebook used which machine's Jupyter server and kernel, as kept between sessions
// (src/core/notebooks/machineKernelRecords.ts), and the start script's handling of the token and the folder
// (src/core/notebooks/machineJupyter.ts): damaged or hostile stored values are dropped, one record per
// notebook, no field beyond the record; the script never names the token and quotes the folder.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedFolder, MachineJupyterError, startScript } from '../../../src/core/notebooks/machineJupyter';
import { forgetMachineKernel, readMachineKernelRecords, rememberMachineKernel, type MachineKernelRecord } from '../../../src/core/notebooks/machineKernelRecords';

const record = (notebook: string, at: number, extra: Partial<MachineKernelRecord> = {}): MachineKernelRecord => ({ notebook, profileId: 'p1', deviceId: 9001, remotePort: 41000, pid: 1234, kernelId: '1b2c3d4e-aaaa-bbbb-cccc-000000000001', at, ...extra });

describe('notebooks: remembered machine kernels', () => {
  it('keeps only valid records, the newest per notebook, and nothing beyond the record', () => {
    const stored: unknown[] = [
      record('file:///a.ipynb', 1),
      record('file:///a.ipynb', 5, { kernelId: 'newer' }),
      { ...record('file:///b.ipynb', 2), remotePort: 70000 },
      { ...record('file:///c.ipynb', 2), pid: 0 },
      { ...record('file:///d.ipynb', 2), kernelId: '../../api/kernels' },
      { ...record('file:///e.ipynb', 2), deviceId: '9001' },
      { ...record('file:///f.ipynb', 3), token: 'never kept' },
      'text',
      null,
    ];
    const read = readMachineKernelRecords(stored);
    assert.deepEqual(read.map((kept) => [kept.notebook, kept.kernelId]), [
      ['file:///a.ipynb', 'newer'],
      ['file:///f.ipynb', record('', 0).kernelId],
    ]);
    assert.ok(read.every((kept) => !('token' in kept)));
  });

  it('remembers one record per notebook, newest first, and forgets it', () => {
    const list = rememberMachineKernel(rememberMachineKernel([], record('file:///a.ipynb', 1)), record('file:///a.ipynb', 2, { remotePort: 42000 }));
    assert.deepEqual(list.map((kept) => kept.remotePort), [42000]);
    assert.deepEqual(forgetMachineKernel(list, 'file:///a.ipynb'), []);
  });
});

describe('notebooks: the machine start script', () => {
  it('reads the token from stdin only and quotes the folder as one word', () => {
    const script = startScript("/data/it's here; rm -rf ~");
    assert.match(script, /IFS= read -r T/);
    assert.match(script, /D='\/data\/it'\\''s here; rm -rf ~'/);
    assert.match(startScript(undefined), /D="\$HOME"/);
  });

  it('takes the home or an absolute folder without ".."', () => {
    assert.equal(checkedFolder(undefined), undefined);
    assert.equal(checkedFolder(' ~ '), undefined);
    assert.equal(checkedFolder('/data/project '), '/data/project');
    for (const bad of ['data', '/data/../etc', '/a\nb', '/a\0b', `/${'x'.repeat(2000)}`]) assert.throws(() => checkedFolder(bad), MachineJupyterError, bad.slice(0, 20));
  });
});
