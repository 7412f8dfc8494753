// The sandbox machine is taken back as the platform's is (test/sandbox/metal/machineProcesses.ts): when a
// rental ends, every process started on the machine ends too — a process started detached in a new session
// over SSH, a Jupyter server started as the extension starts it and its kernel — and when the sandbox
// stops, no Jupyter process of its machines is left. Each process is found running first, by its pid.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { connectRented, type MachineService } from '../../src/core/machines';
import { MachineTunnel, RemoteKernel, startMachineJupyter, untilMachineJupyterAnswers } from '../../src/core/notebooks/index';
import type { SshConnection } from '../../src/core/ssh';
import { waitUntil } from '../helpers/eventually';
import { commandLine, processTree, runs } from '../helpers/processes';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';
import { sandboxWithRentedMachine } from './helpers/rentedMachine';

async function detached(ssh: SshConnection): Promise<number> {
  const result = await ssh.exec('nohup setsid sleep 100000 >/dev/null 2>&1 </dev/null & echo $!');
  const pid = Number(result.stdout.trim());
  assert.ok(Number.isSafeInteger(pid) && pid > 0, result.stdout);
  return pid;
}

/** A Jupyter server started on the machine as the extension starts it, with a kernel: every pid of it. */
async function jupyterWithKernel(ssh: SshConnection, keyOnly: () => Promise<SshConnection>): Promise<number[]> {
  const token = randomBytes(32).toString('hex');
  const server = await startMachineJupyter(ssh, token, undefined);
  const tunnel = await MachineTunnel.open({ connect: keyOnly, remotePort: server.remotePort });
  try {
    await untilMachineJupyterAnswers({ baseUrl: tunnel.baseUrl, token }, () => tunnel.ssh(), server, { looks: 1_000, pause: () => new Promise((resolve) => setTimeout(resolve, 100)) });
    const kernel = await RemoteKernel.start({ baseUrl: tunnel.baseUrl, token });
    kernel.dispose();
    // The kernel is a process of its own below the server.
    return await waitUntil('the kernel process', () => {
      const pids = processTree(server.pid);
      return pids.some((pid) => commandLine(pid).includes('ipykernel')) && pids;
    });
  } finally {
    tunnel.close();
  }
}

describe('sandbox: a machine taken back ends every process started on it', () => {
  let sandbox: Sandbox | undefined;
  after(async () => {
    await sandbox?.close();
  });

  it('a rental that ends ends the detached process and the Jupyter server with its kernel; the sandbox stopping ends the rest', async () => {
    const DEVICE = 9001;
    let service: MachineService;
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
    const store = new MemoryMachineKeyStore();
    const keyOnly = async (deviceId: number): Promise<SshConnection> => (await connectRented(service, deviceId, store, async () => assert.fail('never asks'))).connection;
    /** A process started detached and a Jupyter server with its kernel, on the machine: their pids, each running. */
    const startedOn = async (deviceId: number): Promise<number[]> => {
      (await connectRented(service, deviceId, store, async () => ({ kind: 'generate' }))).connection.close();
      const ssh = await keyOnly(deviceId);
      try {
        const pids = [await detached(ssh), ...(await jupyterWithKernel(ssh, () => keyOnly(deviceId)))];
        assert.ok(pids.every(runs), 'every process runs while the machine is rented');
        return pids;
      } finally {
        ssh.close();
      }
    };

    const pids = await startedOn(DEVICE);
    const own = sandbox.metal.machine(DEVICE)?.processes() ?? [];
    assert.ok(pids.every((pid) => own.includes(pid)), 'the machine knows them as its own');
    assert.ok(await sandbox.metal.endRental(DEVICE));
    await waitUntil('the machine\'s processes to end', () => !pids.some(runs));

    // A second machine, left rented: the sandbox stopping takes it back too.
    const SECOND = 9002;
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === SECOND);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(SECOND, { pollMs: 20 });
    const left = await startedOn(SECOND);
    const home = sandbox.metal.machine(SECOND)?.home ?? assert.fail('no machine');
    const closing = sandbox;
    sandbox = undefined;
    await closing.close();
    await waitUntil('the second machine\'s processes to end', () => !left.some(runs));
    const jupyters = fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && runs(Number(name)))
      .map((name) => commandLine(Number(name)))
      .filter((line) => /jupyter|ipykernel/.test(line) && line.includes(home));
    assert.deepEqual(jupyters, [], 'no Jupyter process of the sandbox\'s machines is left');
  });
});
