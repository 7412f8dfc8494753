// Connecting to a rented machine against the sandbox's real SSH server (docs/machines.md): rent →
// Serving → the first connect installs a generated key with the platform's password, later connects
// are key-only; the host key is pinned (the fingerprint OpenSSH's ssh-keygen prints) and a changed key
// is refused before any login; the written ssh config works with Debian's OpenSSH client in BatchMode;
// the connection carries a pty shell (resize, Ctrl+C), SFTP and port forwarding. Bad input: a changed
// price, a machine that never becomes Serving, a rejected password, a refused kept key (never replaced with the
// password unasked), a hostile catalogue. The user's own key
// with a passphrase: needed, a wrong one refused, the right one installs and logs in; never logged.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ConfigError } from '../../src/core/errors';
import {
  connectMachine,
  connectRented,
  generateMachineKey,
  MachineService,
  PassphraseNeededError,
  PriceChangedError,
  readOwnKey,
  productLabel,
  writeMachineConfig,
  type MachineKey,
  type PinnedHostKey,
} from '../../src/core/machines';
import { SftpConnection, SshAuthError, SshConnection, SshHostKeyError } from '../../src/core/ssh';
import { waitUntil } from '../helpers/eventually';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { MemoryMachineKeyStore } from './helpers/memoryMachineKeyStore';

const run = promisify(execFile);

const MemoryStore = MemoryMachineKeyStore;

describe('connecting to a rented machine', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let service: MachineService;
  let wakes = 0;
  const logLines: string[] = [];
  const logger = { info: (m: string) => logLines.push(m), warn: (m: string) => logLines.push(m), error: (m: string) => logLines.push(m), debug: (m: string) => logLines.push(m) };
  const work = mkdtempSync(join(tmpdir(), 'machines-connect-'));
  const store = new MemoryStore();
  const DEVICE = 9001;

  before(async () => {
    sandbox = await startSandbox({ metal: { waitingMs: 100 } });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    service = new MachineService(client, () => wakes++, logger as never);
  });
  after(async () => {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('rents, waits for Serving, installs a key with the password once, then connects key-only with the host key pinned', async () => {
    const [a100] = (await service.singles('Hour')).filter((product) => product.device_id === DEVICE);
    assert.ok(a100);
    assert.equal(service.total({ products: [a100], billing: 'Hour', packs: 3, softwareInit: false }), 3 * 28_000_000);
    const wakesBefore = wakes;
    await service.rent({ products: [a100], billing: 'Hour', packs: 3, softwareInit: false });
    assert.ok(wakes > wakesBefore, 'renting wakes the store');
    await service.waitForServing(DEVICE, { pollMs: 20 });
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);

    let asked = 0;
    const first = await connectRented(service, DEVICE, store, async () => (asked++, { kind: 'generate' }));
    first.connection.close();
    assert.equal(first.installedKey, true);
    assert.equal(asked, 1);
    assert.equal(machine.accepted.password, 1);
    const key = store.keys.get(DEVICE);
    assert.ok(key && readFileSync(join(machine.home, '.ssh', 'authorized_keys'), 'utf8').includes(key.publicKey));
    // The fingerprint is the one OpenSSH prints for the same key.
    const keyFile = join(work, 'hostkey.pub');
    writeFileSync(keyFile, `${first.hostKey.key}\n`);
    const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', keyFile]);
    assert.equal(stdout.split(' ')[1], first.hostKey.fingerprint);
    assert.deepEqual(store.hostKeys.get(DEVICE), first.hostKey);

    const second = await connectRented(service, DEVICE, store, async () => assert.fail('a key-only connect asks nothing'));
    try {
      assert.equal(second.installedKey, false);
      assert.equal(machine.accepted.password, 1, 'no password login after the key is in');
      assert.ok(machine.accepted.publickey >= 2);
      assert.equal((await second.connection.exec('cat .ssh/authorized_keys | wc -l')).stdout.trim(), '1', 'the key is installed once');
    } finally {
      second.connection.close();
    }
    // The machine now refuses the platform's password (sshd drop-in + reload), as a real sshd would.
    const login = await service.login(DEVICE);
    assert.equal(first.passwordOff, true);
    assert.match(readFileSync(join(machine.etcSsh, 'sshd_config.d', '01-compute-toolkit.conf'), 'utf8'), /^PasswordAuthentication no$/m);
    const refusedBefore = machine.refused.password;
    await assert.rejects(SshConnection.open({ host: login.host, port: login.port, username: login.username, password: login.password ?? '' }), SshAuthError);
    assert.equal(machine.refused.password, refusedBefore + 1, 'the password was tried and refused');
    assert.equal(machine.accepted.password, 1);
    // Neither the password nor the key appears in the log.
    const log = logLines.join('\n');
    assert.ok(login.password && !log.includes(login.password));
    assert.ok(!log.includes(key.privateKey.split('\n')[1] ?? '§') && !log.includes(key.publicKey.split(' ')[1] ?? '§'));
  });

  it('the written ssh config works with OpenSSH in BatchMode, and the user config gains one Include only', async () => {
    const login = await service.login(DEVICE);
    const key = store.keys.get(DEVICE) as MachineKey;
    const identityFile = join(work, 'machine-9001.key');
    writeFileSync(identityFile, key.privateKey, { mode: 0o600 });
    const userConfig = join(work, 'user-ssh-config');
    const mine = 'Host example\n  HostName example.com\n  User me\n';
    writeFileSync(userConfig, mine);
    const files = { dir: join(work, 'compute-toolkit'), userConfig };
    const entry = { alias: 'machine-9001', host: login.host, port: login.port, user: login.username, identityFile, hostKey: (store.hostKeys.get(DEVICE) as PinnedHostKey).key };
    const { config, addedInclude } = await writeMachineConfig(files, [entry]);
    assert.equal(addedInclude, true);
    assert.equal(readFileSync(userConfig, 'utf8'), `Include "${config}"\n${mine}`);
    assert.equal((await writeMachineConfig(files, [entry])).addedInclude, false, 'one Include only');
    assert.equal(readFileSync(userConfig, 'utf8'), `Include "${config}"\n${mine}`);

    const ssh = await run('ssh', ['-F', config, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=60', 'machine-9001', 'true']);
    assert.equal(ssh.stderr.includes('Permanently added'), false, 'the pinned key was already known');
    // A wrong pinned key in the file: OpenSSH refuses too.
    const other = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(work, 'other')]).then(() => readFileSync(join(work, 'other.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' '));
    await writeMachineConfig(files, [{ ...entry, hostKey: other }]);
    await assert.rejects(run('ssh', ['-F', config, '-o', 'BatchMode=yes', 'machine-9001', 'true']));
  });

  it('carries a pty shell (resize, Ctrl+C), SFTP and a port forward', async () => {
    const { connection } = await connectRented(service, DEVICE, store, async () => assert.fail('key-only'));
    try {
      const shell = await connection.shell({ rows: 30, cols: 100 });
      let seen = '';
      shell.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
      await waitUntil('the prompt', () => seen.includes('$ '));
      shell.write('sleep 613; echo after-sleep\n');
      await waitUntil('the sleep runs on the machine', async () => (await connection.exec('pgrep -f "sleep 61[3]"')).code === 0);
      shell.write('\x03');
      shell.write('echo "mark-$((40+2))"\n');
      await waitUntil('the shell answered after Ctrl+C', () => seen.includes('mark-42'));
      assert.doesNotMatch(seen, /(^|\n)after-sleep/, 'Ctrl+C stopped the command');
      shell.setWindow(40, 120, 0, 0);
      await waitUntil('the resize reached the machine', () => sandbox.metal.machine(DEVICE)?.lastWindow?.cols === 120);
      shell.close();

      const sftp = await SftpConnection.over(connection);
      await sftp.writeFile('/hello.txt', Buffer.from('hi'));
      assert.equal((await sftp.readFile('/hello.txt')).toString(), 'hi');
      assert.ok((await sftp.readdir('/')).some((entry) => entry.name === 'hello.txt'));

      const server = createServer((socket) => socket.end('forwarded'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const stream = await connection.forwardOut('127.0.0.1', (server.address() as AddressInfo).port);
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        await waitUntil('the forwarded answer', () => text === 'forwarded');
        stream.destroy();
      } finally {
        server.close();
      }
    } finally {
      connection.close();
    }
  });

  it('a changed host key is refused before any login, with both fingerprints', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine && (await sandbox.metal.rotateHostKey(DEVICE)));
    const logins = machine.accepted.publickey + machine.refused.publickey + machine.accepted.password + machine.refused.password;
    await assert.rejects(connectRented(service, DEVICE, store, async () => assert.fail('no key install')), (error: unknown) => {
      assert.ok(error instanceof SshHostKeyError);
      assert.equal(error.expected, store.hostKeys.get(DEVICE)?.fingerprint);
      assert.match(error.message, /SHA256:.*not the pinned SHA256:/);
      return true;
    });
    assert.equal(machine.accepted.publickey + machine.refused.publickey + machine.accepted.password + machine.refused.password, logins, 'nothing was sent');
  });

  it('a rejected password is a login error, not a retry loop', async () => {
    const login = await service.login(DEVICE);
    await assert.rejects(connectMachine({ deviceId: 424242, login: { ...login, password: 'not-the-password' }, store: new MemoryStore(), chooseKey: async () => ({ kind: 'generate' }) }), SshAuthError);
  });

  it('a kept key the machine refuses is never replaced with the password unless the user is asked (a key-only connect refuses)', async () => {
    const machine = sandbox.metal.machine(DEVICE);
    assert.ok(machine);
    const login = await service.login(DEVICE);
    const reset = new MemoryStore();
    await reset.saveMachineKey(DEVICE, generateMachineKey(DEVICE)); // kept here, never installed there
    const passwordTries = (): number => machine.accepted.password + machine.refused.password;
    const before = passwordTries();
    await assert.rejects(
      connectMachine({ deviceId: DEVICE, login, store: reset, chooseKey: () => Promise.reject(new Error('key-only: run Connect… again')) }),
      /key-only: run Connect… again/,
    );
    assert.equal(passwordTries(), before, 'the platform password was not sent');
    assert.ok(machine.refused.publickey > 0, 'the kept key was tried');
  });

  it('a changed price is refused with the new price; nothing is ordered', async () => {
    const [rtx] = (await service.singles('Hour')).filter((product) => product.device_id === 9002);
    assert.ok(rtx);
    sandbox.metal.addProduct({ device_id: 9002, hour_price_discount: 5_900_000 });
    const ordersBefore = (await service.orders()).length;
    await assert.rejects(service.rent({ products: [rtx], billing: 'Hour', packs: 1, softwareInit: false }), (error: unknown) => error instanceof PriceChangedError && error.newPrice === 5_900_000);
    assert.equal((await service.orders()).length, ordersBefore);
  });

  it('a machine that never becomes Serving ends the wait with a clear error', async () => {
    sandbox.metal.setWaitingMs(Number.POSITIVE_INFINITY);
    const [h100] = (await service.singles('Hour')).filter((product) => product.device_id === 9003);
    assert.ok(h100);
    await service.rent({ products: [h100], billing: 'Hour', packs: 1, softwareInit: false });
    let clock = 0;
    await assert.rejects(service.waitForServing(9003, { now: () => clock, sleep: async () => void (clock += 60_000), timeoutMs: 10 * 60_000 }), (error: unknown) => error instanceof ConfigError && /did not become Serving in the time allowed \(10 min\); it is still Waiting/.test(error.message));
    await assert.rejects(service.login(9003), /not Serving yet/);
  });

  it('hostile catalogue text is shown as one bounded plain line', async () => {
    sandbox.metal.addProduct({ device_id: 9060, gpu_model: `\u001b[31mA100\u001b[0m\nrm -rf /\u202e${'x'.repeat(5000)}`, zone_name: 'zone\u0007\r\n' });
    const [hostile] = (await service.singles('Hour')).filter((product) => product.device_id === 9060);
    assert.ok(hostile);
    const label = productLabel(hostile);
    assert.doesNotMatch(label, /[\u0000-\u001f\u007f-\u009f\u202e]/);
    assert.ok(label.length <= 200);
    assert.match(label, /^8 × A100 rm -rf \/ ?x+…/);
  });

  it("installs the user's own key protected by a passphrase: needed, a wrong one refused, never logged or kept by the core", async () => {
    const OWN = 9071;
    const PASSPHRASE = 'pass-Phrase-7731 §';
    const sshDir = join(work, 'own-ssh');
    mkdirSync(sshDir);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', PASSPHRASE, '-C', 'me@laptop', '-f', join(sshDir, 'id_ed25519')]);
    const publicFile = join(sshDir, 'id_ed25519.pub');
    await assert.rejects(readOwnKey(publicFile), (error: unknown) => error instanceof PassphraseNeededError && error.privateKeyFile === join(sshDir, 'id_ed25519'));
    await assert.rejects(readOwnKey(publicFile, 'not-it'), (error: unknown) => error instanceof ConfigError && /does not open the private key/.test(error.message) && !error.message.includes('not-it'));
    const key = await readOwnKey(publicFile, PASSPHRASE);

    // An earlier test left machines Waiting for ever.
    sandbox.metal.setWaitingMs(100);
    sandbox.metal.addProduct({ device_id: OWN });
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === OWN);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(OWN, { pollMs: 20, timeoutMs: 60_000 });
    const own = new MemoryStore();
    const first = await connectRented(service, OWN, own, async () => ({ kind: 'own', key }), undefined, logger as never);
    first.connection.close();
    assert.equal(first.installedKey, true);
    const again = await connectRented(service, OWN, own, async () => assert.fail('no second install'), undefined, logger as never);
    assert.equal(again.installedKey, false);
    assert.equal((await again.connection.exec('echo own-$((6*7))')).stdout.trim(), 'own-42');
    again.connection.close();
    assert.ok(!logLines.join('\n').includes(PASSPHRASE), 'the passphrase is never logged');
  });
});
