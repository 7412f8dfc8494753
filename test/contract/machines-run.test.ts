// Run on a machine against the sandbox's real SSH machine (docs/machines.md "Run on a machine"): the
// folder sent over SFTP with the volumes' sync (only what changed the second time), the command run in
// that folder under the home with run.json's variables, its lines and exit code; stop() ends the
// command on the machine and the run settles; the run folder and variable names cannot leave the home
// or add shell words.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectRented, machineSftpSessions, MachineService, type MachineConnection } from '../../src/core/machines';
import { machineCommandLine, startMachineCommand, syncToMachine } from '../../src/core/machines/machineRun';
import { waitUntil } from '../helpers/eventually';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';
import { sandboxWithRentedMachine } from './helpers/rentedMachine';

describe('a run on a machine', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  let connected: MachineConnection;
  let local: string;
  const store = new MemoryMachineKeyStore();
  const DEVICE = 9001;
  const sessions = () => machineSftpSessions({ login: (id, signal) => service.login(id, signal), store: () => store });

  before(async () => {
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
    connected = await connectRented(service, DEVICE, store, async () => ({ kind: 'generate' }));
    local = mkdtempSync(join(tmpdir(), 'machine-run-'));
    mkdirSync(join(local, 'src'));
    writeFileSync(join(local, 'train.sh'), 'echo "epoch 1 of $EPOCHS"\necho "from $(basename "$PWD")"\ncat src/data.txt\nexit 7\n');
    writeFileSync(join(local, 'src', 'data.txt'), 'line of data\n');
    writeFileSync(join(local, '.gitignore'), 'ignored.txt\n');
    writeFileSync(join(local, 'ignored.txt'), 'never sent\n');
  });
  after(async () => {
    connected.connection.close();
    rmSync(local, { recursive: true, force: true });
    await sandbox.close();
  });

  it('syncs the folder under the home, runs the command there with the variables, and reports its lines and exit code', async () => {
    const own = sessions();
    try {
      const sync = await syncToMachine(own, DEVICE, local, 'runs/project');
      assert.deepEqual([sync.sent, sync.skipped], [3, 0]);
      const home = sandbox.metal.machine(DEVICE)?.home ?? '';
      assert.equal(readFileSync(join(home, 'runs', 'project', 'src', 'data.txt'), 'utf8'), 'line of data\n');
      assert.throws(() => readFileSync(join(home, 'runs', 'project', 'ignored.txt')));
      const lines: string[] = [];
      const run = await startMachineCommand({ connection: connected.connection, remoteDir: 'runs/project', command: 'sh train.sh', env: [{ name: 'EPOCHS', value: "3 'quoted'" }], onLine: (line) => lines.push(line) });
      assert.equal(await run.done, 7);
      assert.deepEqual(lines.map((line) => line.replace(/\r/g, '')), ["epoch 1 of 3 'quoted'", 'from project', 'line of data']);
      // Run again, nothing changed: nothing is sent.
      const again = await syncToMachine(own, DEVICE, local, 'runs/project');
      assert.deepEqual([again.sent, again.bytes, again.skipped], [0, 0, 3]);
    } finally {
      own.dispose();
    }
  });

  it('stop() ends the command on the machine and the run settles', async () => {
    const lines: string[] = [];
    const run = await startMachineCommand({ connection: connected.connection, remoteDir: 'runs/project', command: 'echo started; sleep 613', env: [], onLine: (line) => lines.push(line) });
    await waitUntil('the command to start', () => lines.some((line) => line.includes('started')));
    run.stop();
    assert.notEqual(await run.done, 0);
    await waitUntil('the sleep gone on the machine', async () => (await connected.connection.exec('pgrep -f "sleep 61[3]"')).code !== 0);
  });

  it('keeps the run folder under the home and every value one shell word', () => {
    assert.equal(machineCommandLine('runs/a b', [{ name: 'X', value: '$(touch pwned)' }], 'python t.py'), `cd -- "$HOME"/'runs/a b' && export X='$(touch pwned)' && python t.py`);
    assert.throws(() => machineCommandLine('../../etc', [], 'true'), RangeError);
    assert.throws(() => machineCommandLine('', [], 'true'), RangeError);
    assert.throws(() => machineCommandLine('runs', [{ name: 'A;rm', value: '' }], 'true'), RangeError);
  });
});
