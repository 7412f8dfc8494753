// The group launcher (core/machines/launcher.ts): torchrun on every machine with the node count, its
// rank and the first machine's inner IP as the rendezvous address; bad input refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupLaunches, shellWord } from '../../../src/core/machines/launcher';
import { ConfigError } from '../../../src/core/errors';

describe('group launcher', () => {
  it('gives each machine its rank, the node count and the first machine as rendezvous', () => {
    const launches = groupLaunches({ innerIps: ['10.0.0.5', '10.0.0.6', '10.0.0.7'], nprocPerNode: 8, command: ['train.py', '--lr', '3e-4'] });
    assert.deepEqual(
      launches.map((launch) => launch.argv),
      [0, 1, 2].map((rank) => ['torchrun', '--nnodes=3', `--node_rank=${rank}`, '--nproc_per_node=8', '--master_addr=10.0.0.5', '--master_port=29500', 'train.py', '--lr', '3e-4']),
    );
    assert.deepEqual(launches.map((launch) => launch.innerIp), ['10.0.0.5', '10.0.0.6', '10.0.0.7']);
  });

  it('quotes every word for the remote shell', () => {
    const [launch] = groupLaunches({ innerIps: ['10.0.0.5'], nprocPerNode: 1, masterPort: 29400, command: ['run.py', "it's $(rm -rf /)"] });
    assert.equal(launch?.shell, `torchrun --nnodes=1 --node_rank=0 --nproc_per_node=1 --master_addr=10.0.0.5 --master_port=29400 run.py 'it'\\''s $(rm -rf /)'`);
    assert.equal(shellWord(''), "''");
  });

  it('refuses a machine without an inner IP, a bad port, no processes or no command', () => {
    for (const bad of [
      { innerIps: [], nprocPerNode: 1, command: ['x'] },
      { innerIps: ['10.0.0.5', ''], nprocPerNode: 1, command: ['x'] },
      { innerIps: ['10.0.0.5; reboot'], nprocPerNode: 1, command: ['x'] },
      { innerIps: ['10.0.0.5'], nprocPerNode: 0, command: ['x'] },
      { innerIps: ['10.0.0.5'], nprocPerNode: 1, masterPort: 70000, command: ['x'] },
      { innerIps: ['10.0.0.5'], nprocPerNode: 1, command: [] },
    ]) {
      assert.throws(() => groupLaunches(bad), ConfigError, JSON.stringify(bad));
    }
  });
});
