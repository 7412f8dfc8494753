// The machine shell against the sandbox's real SSH server (docs/machines.md): a pty shell that carries
// Ctrl+C and resizes and ends on `exit` with its code; a dropped connection reconnects by itself within
// its bounded attempts (the waits driven by the test, never a clock), gives up after the last one, and
// never retries a changed host key or an ended rental; closing stops a reconnect that is waiting.

import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connectRented, forwardPort, MachineService, MachineShell, RentalEndedError, type MachineShellState } from '../../src/core/machines';
import { SshHostKeyError } from '../../src/core/ssh';
import { waitUntil } from '../helpers/eventually';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';
import { sandboxWithRentedMachine } from './helpers/rentedMachine';

const MemoryStore = MemoryMachineKeyStore;

/** A shell whose output and states are recorded, and whose reconnect waits the test releases. */
function recordedShell(connect: (signal: AbortSignal) => ReturnType<typeof connectRented>, attempts = 4) {
  const states: MachineShellState[] = [];
  const waits: (() => void)[] = [];
  let output = '';
  const shell = new MachineShell({
    connect: async (signal) => (await connect(signal)).connection,
    rows: 24,
    cols: 80,
    attempts,
    onData: (text) => (output += text),
    onState: (state) => states.push(state),
    sleep: (_ms, signal) =>
      new Promise<void>((resolve, reject) => {
        waits.push(resolve);
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
  });
  return { shell, states, waits, output: () => output, kinds: () => states.map((state) => state.kind).join(',') };
}

describe('a shell on a machine', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  const store = new MemoryStore();
  const DEVICE = 9001;

  before(async () => {
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
    (await connectRented(service, DEVICE, store, async () => ({ kind: 'generate' }))).connection.close();
  });
  after(() => sandbox.close());

  const keyOnly = (signal: AbortSignal) => connectRented(service, DEVICE, store, async () => assert.fail('a shell never asks for a key'), signal);

  it('carries typing, Ctrl+C and a resize, and ends on exit with its code', async () => {
    const { shell, states, output } = recordedShell(keyOnly);
    await shell.start();
    assert.equal(states.at(-1)?.kind, 'open');
    await waitUntil('the prompt', () => output().includes('$ '));
    shell.write('sleep 614; echo after-sleep\n');
    await waitUntil('the sleep runs', async () => {
      const { connection } = await keyOnly(new AbortController().signal);
      try {
        return (await connection.exec('pgrep -f "sleep 61[4]"')).code === 0;
      } finally {
        connection.close();
      }
    });
    shell.write('\x03');
    shell.write('echo "mark-$((40+3))"\n');
    await waitUntil('the shell answered after Ctrl+C', () => output().includes('mark-43'));
    assert.doesNotMatch(output(), /(^|\n)after-sleep/);
    shell.resize(33, 111);
    await waitUntil('the resize reached the machine', () => sandbox.metal.machine(DEVICE)?.lastWindow?.cols === 111);
    shell.write('exit 7\n');
    await waitUntil('the shell to exit', () => states.some((state) => state.kind === 'exited'));
    assert.deepEqual(states.at(-1), { kind: 'exited', code: 7 });
  });

  it('reconnects by itself after a dropped connection, and gives up after its bounded attempts', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    const { shell, states, waits, output, kinds } = recordedShell(keyOnly, 3);
    await shell.start();
    await waitUntil('the prompt', () => output().includes('$ '));
    await machine.stop();
    await waitUntil('the drop to be seen', () => states.some((state) => state.kind === 'lost'));
    assert.match(JSON.stringify(states.find((state) => state.kind === 'lost')), /"attempt":1,"of":3/);
    await machine.start();
    waits.shift()?.();
    await waitUntil('the shell open again', () => states.at(-1)?.kind === 'open');
    shell.write('echo "back-$((2*21))"\n');
    await waitUntil('the new shell answers', () => output().includes('back-42'));

    // Down for good: attempts 1..3, then it gives up (each wait released by the test at once).
    await machine.stop();
    await waitUntil('gave up', () => {
      waits.shift()?.();
      return states.at(-1)?.kind === 'gave-up';
    });
    assert.equal(kinds().split(',').filter((kind) => kind === 'connecting').length, 1 + 1 + 3, 'three attempts for the second drop');
    await machine.start();
    await shell.reconnect();
    assert.equal(states.at(-1)?.kind, 'open', 'Reconnect starts again');
    shell.close();
    assert.equal(states.at(-1)?.kind, 'closed');
  });

  it('a changed host key while reconnecting is refused at once, not retried', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    const { shell, states, waits, output } = recordedShell(keyOnly, 5);
    await shell.start();
    await waitUntil('the prompt', () => output().includes('$ '));
    await machine.rotateHostKey();
    await waitUntil('gave up', () => {
      waits.shift()?.();
      return states.at(-1)?.kind === 'gave-up';
    });
    const last = states.at(-1);
    assert.ok(last?.kind === 'gave-up' && last.error instanceof SshHostKeyError);
    assert.equal(states.filter((state) => state.kind === 'connecting').length, 2, 'the first open and one refused attempt');
    shell.close();
  });

  it('closing while a reconnect waits stops it: nothing hangs', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    store.hostKeys.delete(DEVICE); // the rotated key of the test before is the machine's now
    const { shell, states, output } = recordedShell(keyOnly, 5);
    await shell.start();
    await waitUntil('the prompt', () => output().includes('$ '));
    await machine.stop();
    await waitUntil('waiting to reconnect', () => states.at(-1)?.kind === 'lost');
    shell.close();
    await machine.start();
    assert.equal(states.at(-1)?.kind, 'closed');
    assert.equal(states.filter((state) => state.kind === 'connecting').length, 1);
  });
});

describe('a machine whose rental ends while a shell is open', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  const store = new MemoryStore();
  const DEVICE = 9003;

  before(async () => {
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
    (await connectRented(service, DEVICE, store, async () => ({ kind: 'generate' }))).connection.close();
  });
  after(() => sandbox.close());

  it('says the rental ended and stops: one attempt after the drop, no retry loop', async () => {
    const keyOnly = (signal: AbortSignal) => connectRented(service, DEVICE, store, async () => assert.fail('never asks'), signal);
    const { shell, states, waits, output } = recordedShell(keyOnly, 5);
    await shell.start();
    await waitUntil('the prompt', () => output().includes('$ '));
    assert.equal(await sandbox.metal.endRental(DEVICE), true);
    await waitUntil('gave up', () => {
      waits.shift()?.();
      return states.at(-1)?.kind === 'gave-up';
    });
    const last = states.at(-1);
    assert.ok(last?.kind === 'gave-up' && last.error instanceof RentalEndedError, JSON.stringify(states));
    assert.match(last.reason, /The rental of machine 9003 has ended:/);
    assert.equal((last.error as RentalEndedError).status, 'Finished');
    assert.equal(states.filter((state) => state.kind === 'connecting').length, 2, 'the first open and one attempt that learnt the rental ended');
    await assert.rejects(service.login(DEVICE), RentalEndedError);
    shell.close();
  });
});

describe('a port forwarded to a machine', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  const store = new MemoryStore();
  const DEVICE = 9002;

  before(async () => {
    ({ sandbox, service } = await sandboxWithRentedMachine(DEVICE));
  });
  after(() => sandbox.close());

  it('carries bytes both ways to a port on the machine, and closing ends every socket and the connection', async () => {
    const echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const { connection } = await connectRented(service, DEVICE, store, async () => ({ kind: 'generate' }));
      const closedSeen: string[] = [];
      const forward = await forwardPort({ deviceId: DEVICE, connection, remotePort: (echo.address() as AddressInfo).port, onClosed: (_forward, why) => closedSeen.push(why) });
      const socket = connect(forward.localPort, '127.0.0.1');
      let answer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => (answer = Buffer.concat([answer, chunk])));
      const payload = Buffer.from(Array.from({ length: 200_000 }, (_, index) => index % 251));
      socket.write(payload);
      await waitUntil('the echo of every byte', () => answer.length >= payload.length);
      assert.ok(answer.equals(payload));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      forward.close();
      await ended;
      assert.deepEqual(closedSeen, ['closed'], 'said once, as closed by the user');
      assert.equal(connection.closed, true);
      await assert.rejects(new Promise((resolve, reject) => connect(forward.localPort, '127.0.0.1').on('connect', resolve).on('error', reject)));
    } finally {
      echo.close();
    }
  });

  it('a dropped connection closes the forward by itself', async () => {
    const { connection } = await connectRented(service, DEVICE, store, async () => assert.fail('key-only'));
    let closed: string | undefined;
    const forward = await forwardPort({ deviceId: DEVICE, connection, remotePort: 9, onClosed: (_forward, why) => (closed = why) });
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    await machine.stop();
    await waitUntil('the forward to close', () => closed !== undefined);
    assert.equal(closed, 'lost', 'a drop is told apart from a close');
    await machine.start();
    assert.ok(forward.localPort > 0);
  });
});
