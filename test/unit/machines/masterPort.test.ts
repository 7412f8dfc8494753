// The group run's rendezvous port (core/machines/masterPort.ts): the port the user's line names, and the
// probe rank 0 runs (here on this computer, with python3 and, without it on PATH, bash's /dev/tcp).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../../src/core/errors';
import { commandMasterPort, pickMasterPort, portProbeCommand } from '../../../src/core/machines/masterPort';

describe('rendezvous port', () => {
  it("reads the port the user's own line sets, and only a literal one", () => {
    assert.equal(commandMasterPort('torchrun --nnodes=$NNODES --master_port=12345 train.py'), 12345);
    assert.equal(commandMasterPort("torchrun --master-port '2222' train.py"), 2222);
    assert.equal(commandMasterPort('torchrun --rdzv_endpoint=10.0.0.1:29400 train.py'), 29400);
    assert.equal(commandMasterPort('MASTER_PORT=3000 python train.py'), 3000);
    assert.equal(commandMasterPort('x; MASTER_PORT=3001 y --master_port=3002'), 3001, 'the first mention');
    assert.equal(commandMasterPort('torchrun --master_port=$MASTER_PORT train.py'), undefined);
    assert.equal(commandMasterPort('torchrun --master_port=123abc train.py'), undefined);
    assert.equal(commandMasterPort('echo--master_port=1 MY_MASTER_PORT=2'), undefined);
    assert.throws(() => commandMasterPort('torchrun --master_port=99999 train.py'), ConfigError);
    assert.throws(() => commandMasterPort('torchrun --master_port=0 train.py'), ConfigError);
  });

  it('reads a hostile line in bounded time (no backtracking blow-up)', () => {
    assert.equal(commandMasterPort(`${'--master_port= '.repeat(200_000)}--rdzv_endpoint=${'a'.repeat(100_000)}`), undefined);
    assert.equal(commandMasterPort(`${' '.repeat(9000)}--master_port=5`), undefined, 'past the part read');
  });

  describe('the probe', () => {
    let held: Server;
    let busy = 0;
    let noPython = '';
    before(async () => {
      held = createServer();
      await new Promise<void>((resolve) => held.listen(0, '0.0.0.0', () => resolve()));
      busy = (held.address() as AddressInfo).port;
      // A PATH with bash only: the probe falls back to /dev/tcp.
      noPython = mkdtempSync(join(tmpdir(), 'probe-path-'));
      symlinkSync('/bin/bash', join(noPython, 'bash'));
    });
    after(async () => {
      await new Promise((resolve) => held.close(resolve));
      rmSync(noPython, { recursive: true, force: true });
    });
    const probe = (ports: number[], path?: string) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile('/bin/sh', ['-c', portProbeCommand(ports)], { env: path ? { PATH: path } : process.env }, (error, stdout) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, out: stdout.trim() }));
      });

    for (const [name, path] of [['python3', undefined], ['bash /dev/tcp', 'no-python']] as const) {
      it(`skips a port in use and says when all are (${name})`, async () => {
        const env = path ? noPython : undefined;
        const found = await probe([busy, busy + 1, busy + 2, busy + 3], env);
        assert.equal(found.code, 0);
        assert.ok([busy + 1, busy + 2, busy + 3].includes(Number(found.out)), found.out);
        assert.deepEqual(await probe([busy], env), { code: 3, out: '' });
      });
    }

    it('pickMasterPort refuses a busy port the command names, and a probe that prints nonsense falls back unchecked', async () => {
      const local = { exec: async (command: string) => new Promise<{ code: number | null; signal: undefined; stdout: string; stderr: string }>((resolve) => execFile('/bin/sh', ['-c', command], (error, stdout) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr: '', signal: undefined }))) };
      await assert.rejects(pickMasterPort(local, { command: `torchrun --master_port=${busy} x` }), /in use on rank 0/);
      const hostile = { exec: async () => ({ code: 0, stdout: '\u001b[31m65536\n'.repeat(10), stderr: '', signal: undefined }) };
      assert.deepEqual(await pickMasterPort(hostile, { start: 29500 }), { port: 29500, source: 'unchecked' });
      const none = { exec: async () => ({ code: 3, stdout: '', stderr: '', signal: undefined }) };
      await assert.rejects(pickMasterPort(none, { start: 40000 }), (error: unknown) => error instanceof ConfigError && /No port from 40000 to 40031/.test(error.message));
    });
  });
});
