// A machine login through the user's SSH agent against the sandbox machine's SSH server (docs/machines.md):
// a real Debian ssh-agent started here (`ssh-agent -D -a <socket>`) holding a key made here with ssh-keygen
// and added with ssh-add. The first connect installs the agent's public key with the platform's password;
// later connects (a shell, the folder over SFTP) sign through the agent only; the agent stopped, or the key taken out of it, is a clear
// error naming what to do (never a hang, never the password again); OpenSSH logs in through the agent with
// the written Host entry pointing at the public key.

import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createComputeClient } from '../../src/core/compute/client';
import { agentKeys, connectRented, keyLogin, machineSftpSessions, MachineService, SshAgentError, writeMachineConfig, type MachineKey, type PinnedHostKey } from '../../src/core/machines';
import { waitUntil } from '../helpers/eventually';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';

const run = promisify(execFile);

describe('connecting to a machine through the SSH agent', () => {
  let sandbox: Sandbox;
  let service: MachineService;
  let agent: ChildProcess | undefined;
  const work = mkdtempSync(join(tmpdir(), 'machines-agent-'));
  const socket = join(work, 'agent.sock');
  const keyFile = join(work, 'id_agent');
  const env = { ...process.env, SSH_AUTH_SOCK: socket };
  const store = new MemoryMachineKeyStore();
  const logLines: string[] = [];
  const logger = { info: (m: string) => logLines.push(m), warn: (m: string) => logLines.push(m), error: (m: string) => logLines.push(m), debug: (m: string) => logLines.push(m) };
  const DEVICE = 9081;
  let agentKey: MachineKey;

  const startAgent = async (): Promise<void> => {
    rmSync(socket, { force: true });
    agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    await waitUntil('the agent socket', () => existsSync(socket));
  };
  const stopAgent = async (): Promise<void> => {
    const running = agent;
    agent = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  before(async () => {
    await startAgent();
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'agent@test', '-f', keyFile]);
    await run('ssh-add', [keyFile], { env });
    sandbox = await startSandbox({ metal: { waitingMs: 100 } });
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    service = new MachineService(client, () => undefined, logger as never);
    sandbox.metal.addProduct({ device_id: DEVICE });
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === DEVICE);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(DEVICE, { pollMs: 20, timeoutMs: 60_000 });
  });
  after(async () => {
    await stopAgent();
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("lists the agent's keys with OpenSSH's fingerprint, and installs the chosen one with the password once", async () => {
    const keys = await agentKeys(socket);
    assert.equal(keys.length, 1);
    const [held] = keys;
    assert.ok(held);
    const printed = (await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${keyFile}.pub`])).stdout.split(' ')[1];
    assert.equal(held.fingerprint, printed);
    assert.equal(held.publicKey, readFileSync(`${keyFile}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' '));
    assert.match(held.summary, /^ssh-ed25519 agent@test$/);

    agentKey = { publicKey: held.publicKey, privateKey: '', agent: { fingerprint: held.fingerprint, socket } };
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    const first = await connectRented(service, DEVICE, store, async () => ({ kind: 'own', key: agentKey }), undefined, logger as never);
    first.connection.close();
    assert.equal(first.installedKey, true);
    assert.equal(machine.accepted.password, 1);
    assert.ok(readFileSync(join(machine.home, '.ssh', 'authorized_keys'), 'utf8').includes(held.publicKey));
    // The core keeps no private key for an agent login: only the fingerprint and the agent.
    assert.equal(store.keys.get(DEVICE)?.privateKey, '');
    assert.equal(store.keys.get(DEVICE)?.agent?.fingerprint, held.fingerprint);
  });

  it('logs in key-only through the agent afterwards (no password, nothing asked)', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    const publickeyBefore = machine.accepted.publickey;
    const again = await connectRented(service, DEVICE, store, async () => assert.fail('a key-only connect asks nothing'), undefined, logger as never);
    try {
      assert.equal(again.installedKey, false);
      assert.equal((await again.connection.exec('echo agent-$((6*7))')).stdout.trim(), 'agent-42');
    } finally {
      again.connection.close();
    }
    assert.equal(machine.accepted.password, 1);
    assert.equal(machine.accepted.publickey, publickeyBefore + 1);
    // The machine's folder (SFTP sessions, key-only) signs through the agent too.
    const sessions = machineSftpSessions({ login: (id, signal) => service.login(id, signal), store: () => store });
    try {
      assert.match(await sessions.run(DEVICE, (sftp) => sftp.realpath('.')), /^\//);
    } finally {
      sessions.dispose();
    }
    assert.equal(machine.accepted.password, 1);
  });

  it("OpenSSH logs in through the agent with the Host entry naming the key's public half", async () => {
    const login = await service.login(DEVICE);
    const publicFile = join(work, 'machine.pub');
    writeFileSync(publicFile, `${agentKey.publicKey}\n`, { mode: 0o600 });
    const files = { dir: join(work, 'compute-toolkit'), userConfig: join(work, 'user-config') };
    const hostKey = (store.hostKeys.get(DEVICE) as PinnedHostKey).key;
    const { config } = await writeMachineConfig(files, [{ alias: 'agent-machine', host: login.host, port: login.port, user: login.username, identityFile: publicFile, hostKey }]);
    const ssh = await run('ssh', ['-F', config, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=60', 'agent-machine', 'echo', 'via-agent'], { env });
    assert.equal(ssh.stdout.trim(), 'via-agent');
  });

  it('a key taken out of the agent is a clear error naming ssh-add; the password is not used again', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    await run('ssh-add', ['-d', `${keyFile}.pub`], { env });
    await assert.rejects(
      connectRented(service, DEVICE, store, async () => assert.fail('nothing asked'), undefined, logger as never),
      (error: unknown) => error instanceof SshAgentError && /no longer holds the key/.test(error.message) && /ssh-add/.test(error.message) && error.message.includes(agentKey.agent?.fingerprint ?? '§'),
    );
    assert.equal(machine.accepted.password, 1, 'no password login instead');
    await run('ssh-add', [keyFile], { env });
  });

  it('the agent stopped is a clear error saying to start it; a connect without SSH_AUTH_SOCK says so too', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    await stopAgent();
    await assert.rejects(
      connectRented(service, DEVICE, store, async () => assert.fail('nothing asked'), undefined, logger as never),
      (error: unknown) => error instanceof SshAgentError && /does not answer/.test(error.message) && /ssh-agent/.test(error.message) && error.message.includes(socket),
    );
    await assert.rejects(agentKeys(socket), SshAgentError);
    assert.throws(() => keyLogin(DEVICE, { ...agentKey, agent: { fingerprint: agentKey.agent?.fingerprint ?? '', socket: undefined } }), (error: unknown) => error instanceof SshAgentError && /SSH_AUTH_SOCK/.test(error.message));
    assert.equal(machine.accepted.password, 1, 'no password login instead');
  });

  it('an agent that accepts and never answers is an error within the bound, not a hang', async () => {
    const silent = join(work, 'silent.sock');
    const server: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(silent, resolve));
    try {
      await assert.rejects(agentKeys(silent, 200), (error: unknown) => error instanceof SshAgentError && /does not answer/.test(error.message));
    } finally {
      server.close();
    }
  });
});
