// A kernel on a rented machine (docs/notebooks.md, "A kernel on a machine") against the sandbox's real SSH
// server per machine, whose exec runs real commands on loopback (Debian's jupyter-server and ipykernel): the
// server started with the extension's token on stdin, reached through the tunnel, a print, an error with its
// traceback, an interrupt; the token in no process's arguments, no file under the home and not the log; the
// kernel kept across a dropped SSH connection; a missing Jupyter named; a rental ending fails fast.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectRented, type MachineService } from '../../src/core/machines';
import { CellOutputs, MachineJupyterError, MachineTunnel, RemoteKernel, startMachineJupyter, stopMachineJupyter, untilMachineJupyterAnswers, type CellOutput, type MachineJupyter } from '../../src/core/notebooks/index';
import type { SshConnection } from '../../src/core/ssh';
import { waitUntil } from '../helpers/eventually';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';
import { sandboxWithRentedMachine } from './helpers/rentedMachine';

const DEVICE = 9001;

function streamText(outputs: readonly CellOutput[]): string {
  return outputs.map((output) => (output.kind === 'stream' && output.name === 'stdout' ? output.text : '')).join('');
}

async function run(kernel: RemoteKernel, code: string): Promise<{ status: string; outputs: CellOutput[] }> {
  const outputs = new CellOutputs();
  const outcome = await kernel.execute(code, outputs, () => undefined);
  return { status: outcome.status, outputs: outputs.view().outputs };
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) found.push(file);
  }
  return found;
}

describe('notebooks: a Jupyter kernel on a rented machine through SSH', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  const store = new MemoryMachineKeyStore();
  const token = randomBytes(32).toString('hex');
  const keyOnly = async (signal?: AbortSignal): Promise<SshConnection> => (await connectRented(service, DEVICE, store, async () => assert.fail('never asks'), signal)).connection;
  let server: MachineJupyter;
  let tunnel: MachineTunnel;
  let kernel: RemoteKernel;
  const links: string[] = [];

  before(async () => {
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
    (await connectRented(service, DEVICE, store, async () => ({ kind: 'generate' }))).connection.close();
    const ssh = await keyOnly();
    try {
      server = await startMachineJupyter(ssh, token, undefined);
    } finally {
      ssh.close();
    }
    tunnel = await MachineTunnel.open({ connect: keyOnly, remotePort: server.remotePort });
    await untilMachineJupyterAnswers({ baseUrl: tunnel.baseUrl, token }, () => tunnel.ssh(), server, { looks: 1_000, pause: () => new Promise((resolve) => setTimeout(resolve, 100)) });
    kernel = await RemoteKernel.start({ baseUrl: tunnel.baseUrl, token }, { onLink: (link) => links.push(link) });
  });
  after(async () => {
    kernel?.dispose();
    tunnel?.close();
    // Closing the sandbox ends the servers this test started on its machines (test/sandbox/metal/machineProcesses.ts).
    await sandbox?.close();
  });

  it('runs a print, an error with its traceback and an interrupt through the tunnel, in the home', async () => {
    const printed = await run(kernel, 'import os\nprint("on the machine", os.getcwd())');
    assert.equal(printed.status, 'ok');
    const home = sandbox.metal.machine(DEVICE)?.home ?? assert.fail('no machine');
    assert.equal(streamText(printed.outputs), `on the machine ${fs.realpathSync(home)}\n`);

    const raised = await run(kernel, 'def f():\n    raise ValueError("bad value")\nf()');
    assert.equal(raised.status, 'error');
    const error = raised.outputs.find((output) => output.kind === 'error');
    assert.ok(error?.kind === 'error' && error.ename === 'ValueError');
    assert.match(error.traceback.join('\n').replace(/\u001b\[[0-9;]*m/g, ''), /raise ValueError\("bad value"\)/);

    const outputs = new CellOutputs();
    const running = kernel.execute('import time\nprint("started", flush=True)\ntime.sleep(600)', outputs, () => undefined);
    await waitUntil('the cell to start', () => streamText(outputs.view().outputs).includes('started'));
    await kernel.interrupt();
    assert.equal((await running).status, 'error');
    assert.ok(outputs.view().outputs.some((output) => output.kind === 'error' && output.ename === 'KeyboardInterrupt'));
  });

  it('the token is in no process\'s arguments, no file under the home and not the server log; only on the server\'s port', async () => {
    const commandLines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    assert.ok(commandLines.includes(`--port=${server.remotePort}`), 'the server runs');
    assert.ok(!commandLines.includes(token), 'the token is in no command line');
    const home = sandbox.metal.machine(DEVICE)?.home ?? assert.fail('no machine');
    const log = path.join(home, '.compute-toolkit', `jupyter-${server.remotePort}.log`);
    assert.ok(fs.existsSync(log), 'the server writes its log');
    assert.deepEqual(filesContaining(home, token), [], 'no file under the home holds the token');
    // The kernel's environment does not carry it either.
    const environ = await run(kernel, 'import os\nprint(sorted(k for k, v in os.environ.items() if v == os.environ.get("JUPYTER_TOKEN", "-")))');
    assert.equal(streamText(environ.outputs), '[]\n');
    const plain = await fetch(`${tunnel.baseUrl}api/kernels`);
    assert.equal(plain.status, 403, 'without the token the server refuses');
  });

  it('keeps the kernel and its variables across a dropped SSH connection', async () => {
    await run(kernel, 'kept = 41');
    const before = links.length;
    await tunnel.drop();
    await waitUntil('the link to drop', () => links.slice(before).some((link) => link !== 'connected'));
    await kernel.reconnect();
    await waitUntil('the link to come back', () => kernel.link === 'connected');
    assert.equal(streamText((await run(kernel, 'print(kept + 1)')).outputs), '42\n');
    // An editor restart: a new tunnel and a new client attach to the same kernel by id.
    const again = await MachineTunnel.open({ connect: keyOnly, remotePort: server.remotePort });
    const attached = await RemoteKernel.connect({ baseUrl: again.baseUrl, token }, kernel.id);
    try {
      assert.equal(streamText((await run(attached, 'print(kept)')).outputs), '41\n');
    } finally {
      attached.dispose();
      again.close();
    }
  });

  it('names what to install when the machine has no Jupyter, and refuses a folder with ..', async () => {
    const ssh = await keyOnly();
    try {
      // A machine without Jupyter: a PATH whose only python3 has no modules at all.
      const bin = path.join(sandbox.metal.machine(DEVICE)?.home ?? assert.fail('no machine'), 'nojupyter');
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'python3'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      const bare = { exec: (command: string, options: { stdin?: string }) => ssh.exec(`PATH=${bin}; ${command}`, options) } as unknown as SshConnection;
      const missing = await startMachineJupyter(bare, token, undefined).then(
        () => assert.fail('started without Jupyter'),
        (error: unknown) => error,
      );
      assert.ok(missing instanceof MachineJupyterError && missing.problem === 'missing', String(missing));
      assert.equal(missing.detail, 'jupyter-server ipykernel');
      const folder = await startMachineJupyter(ssh, token, '/tmp/../etc').catch((error: unknown) => error);
      assert.ok(folder instanceof MachineJupyterError && folder.problem === 'folder');
    } finally {
      ssh.close();
    }
  });

  it('a rental that ends: the tunnel tells at once, the kernel client does not hang', async () => {
    const troubles: unknown[] = [];
    const ssh = await keyOnly();
    const second = await startMachineJupyter(ssh, token, undefined);
    const ending = await MachineTunnel.open({ connect: keyOnly, remotePort: second.remotePort, onTrouble: (error) => troubles.push(error) });
    try {
      await untilMachineJupyterAnswers({ baseUrl: ending.baseUrl, token }, () => ending.ssh(), second, { looks: 1_000, pause: () => new Promise((resolve) => setTimeout(resolve, 100)) });
      ssh.close();
      assert.ok(await sandbox.metal.endRental(DEVICE));
      await assert.rejects(RemoteKernel.start({ baseUrl: ending.baseUrl, token }));
      await waitUntil('the tunnel to tell', () => troubles.length > 0);
      await stopMachineJupyter(ssh, second).then(
        () => assert.fail('the machine still answers'),
        () => undefined,
      );
    } finally {
      ending.close();
    }
  });
});
