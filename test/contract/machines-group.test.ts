// A group run on three sandbox machines of one network group (docs/machines.md "Network groups"): the
// launcher started on each with its rank, the node count and the first machine's inner IP as the
// rendezvous address; output interleaved and tagged by rank; each machine's exit code; stop() ends every
// machine's process and nothing hangs. The launcher here is a stand-in script in each home (no PyTorch in
// the sandbox): it prints the arguments torchrun would be given.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import { ConfigError } from '../../src/core/errors';
import { connectRented, defaultGroupCommand, MachineService, pickMasterPort, PORT_CANDIDATES, startGroupCommand, startGroupRun, type GroupMachine } from '../../src/core/machines';
import { waitUntil } from '../helpers/eventually';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';

const MemoryStore = MemoryMachineKeyStore;

const FAKE_LAUNCHER = '#!/bin/sh\nfor a in "$@"; do echo "arg $a"; done\nrank=$(echo "$@" | sed -n "s/.*--node_rank=\\([0-9]*\\).*/\\1/p")\nif [ "$MODE" = wait ] || [ -f wait ]; then echo "waiting $rank"; exec sleep 600; fi\nexit $((10 + rank))\n';

describe('a group run on three machines', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  const machines: GroupMachine[] = [];
  const store = new MemoryStore();

  before(async () => {
    sandbox = await startSandbox({ metal: { waitingMs: 50 } });
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    service = new MachineService(client);
    const [group] = (await service.groups({ billing_type: 'Hour', device_count: 3, network_type: 'Ib' })).filter((item) => item.network_id === 501);
    assert.ok(group);
    await service.rent({ products: group.inner, billing: 'Hour', packs: 1, softwareInit: false });
    for (const product of group.inner) {
      const detail = await service.waitForServing(product.device_id, { pollMs: 20 });
      const { connection } = await connectRented(service, product.device_id, store, async () => ({ kind: 'generate' }));
      machines.push({ deviceId: product.device_id, innerIp: detail.inner_ip ?? '', connection });
      const home = sandbox.metal.machine(product.device_id)?.home;
      assert.ok(home);
      writeFileSync(join(home, 'fake-torchrun'), FAKE_LAUNCHER, { mode: 0o755 });
    }
  });
  after(async () => {
    for (const machine of machines) machine.connection.close();
    await sandbox.close();
  });

  it('gives each machine its rank, the node count and the first inner IP, tags lines by rank and reports each exit code', async () => {
    const lines: [number, string][] = [];
    const run = await startGroupRun({ machines, launch: { nprocPerNode: 8, command: ['train.py', '--epochs', "it's 3"], launcher: './fake-torchrun' }, onLine: (rank, line) => lines.push([rank, line]) });
    const results = await run.done;
    assert.deepEqual(results.map((result) => [result.rank, result.deviceId, result.code]), machines.map((machine, rank) => [rank, machine.deviceId, 10 + rank]));
    const master = machines[0]?.innerIp ?? '';
    assert.match(master, /^\d+\.\d+\.\d+\.\d+$/);
    for (let rank = 0; rank < 3; rank++) {
      const args = lines.filter(([from]) => from === rank).map(([, line]) => line);
      assert.deepEqual(args, ['arg --nnodes=3', `arg --node_rank=${rank}`, 'arg --nproc_per_node=8', `arg --master_addr=${master}`, 'arg --master_port=29500', 'arg train.py', 'arg --epochs', "arg it's 3"]);
    }
  });

  it("runs the user's own line in the synced folder with each rank's variables exported (the editor's group run)", async () => {
    for (const machine of machines) {
      const dir = join(sandbox.metal.machine(machine.deviceId)?.home ?? '', 'runs', 'grp');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'launch.sh'), 'echo "in $(basename "$PWD") $NNODES $NODE_RANK $NPROC_PER_NODE $MASTER_ADDR $MASTER_PORT $MARK" "$@"\nexit $((20 + NODE_RANK))\n');
    }
    const lines: [number, string][] = [];
    const run = await startGroupCommand({ machines, nprocPerNode: 2, masterPort: 29555, remoteDir: 'runs/grp', command: 'sh launch.sh --rank=$NODE_RANK "a b"', env: [{ name: 'MARK', value: "it's" }], onLine: (rank, line) => lines.push([rank, line]) });
    const results = await run.done;
    assert.deepEqual(results.map((result) => [result.rank, result.deviceId, result.code]), machines.map((machine, rank) => [rank, machine.deviceId, 20 + rank]));
    const master = machines[0]?.innerIp ?? '';
    for (let rank = 0; rank < 3; rank++) {
      assert.deepEqual(lines.filter(([from]) => from === rank).map(([, line]) => line), [`in grp 3 ${rank} 2 ${master} 29555 it's --rank=${rank} a b`]);
    }
    assert.equal(defaultGroupCommand("my train.py"), "torchrun --nnodes=$NNODES --node_rank=$NODE_RANK --nproc_per_node=$NPROC_PER_NODE --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT 'my train.py'");
  });

  it('stop() ends the process on every machine and the run settles', async () => {
    for (const machine of machines) writeFileSync(join(sandbox.metal.machine(machine.deviceId)?.home ?? '', 'wait'), '');
    const lines: [number, string][] = [];
    const run = await startGroupRun({ machines, launch: { nprocPerNode: 1, command: ['train.py'], launcher: './fake-torchrun' }, onLine: (rank, line) => lines.push([rank, line]) });
    await waitUntil('every rank to be waiting', () => [0, 1, 2].every((rank) => lines.some(([from, line]) => from === rank && line === `waiting ${rank}`)));
    run.stop();
    const results = await run.done;
    assert.equal(results.length, 3);
    for (const result of results) assert.notEqual(result.code, 0);
    for (const machine of machines) {
      await waitUntil('the sleep gone on the machine', async () => (await machine.connection.exec('pgrep -f "sleep 60[0]"')).code !== 0);
    }
  });

  it('picks the rendezvous port free on rank 0 (asked over its connection): a busy one is skipped, a busy one named by the command is refused', async () => {
    const rankZero = machines[0]?.connection;
    assert.ok(rankZero);
    // The sandbox machines are this computer: a listener here holds the port on rank 0.
    const held = await listening();
    try {
      const busy = (held.address() as AddressInfo).port;
      const picked = await pickMasterPort(rankZero, { start: busy });
      assert.equal(picked.source, 'free');
      assert.ok(picked.port > busy && picked.port < busy + PORT_CANDIDATES, String(picked.port));
      await assert.rejects(pickMasterPort(rankZero, { command: `torchrun --master_port=${busy} train.py`, start: busy + 1 }), (error: unknown) => error instanceof ConfigError && error.message.includes(String(busy)) && /in use on rank 0/.test(error.message));
      const named = await pickMasterPort(rankZero, { command: `torchrun --master_port=${picked.port} train.py` });
      assert.deepEqual(named, { port: picked.port, source: 'command' });
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });

  it('rank 0 failing (its port taken) stops the ranks left waiting for it: the run settles and says why', async () => {
    for (const machine of machines) mkdirSync(join(sandbox.metal.machine(machine.deviceId)?.home ?? '', 'runs', 'watch'), { recursive: true });
    const lines: [number, string][] = [];
    const stopping: (number | null)[] = [];
    const command = 'if [ "$NODE_RANK" = 0 ]; then echo "address already in use"; exit 1; fi; echo "waiting $NODE_RANK"; exec sleep 607';
    const run = await startGroupCommand({ machines, nprocPerNode: 1, remoteDir: 'runs/watch', command, env: [], onLine: (rank, line) => lines.push([rank, line]), rankZero: { graceMs: 0, onStopping: (code) => stopping.push(code) } });
    const results = await run.done;
    assert.deepEqual(stopping, [1]);
    assert.equal(results[0]?.code, 1);
    for (const result of results.slice(1)) assert.notEqual(result.code, 0);
    for (const machine of machines) {
      await waitUntil('the sleep gone on the machine', async () => (await machine.connection.exec('pgrep -f "sleep 60[7]"')).code !== 0);
    }
  });
});

/** A listener on every address of this computer, on a port the system picks. */
async function listening(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => resolve());
  });
  return server;
}
