// Connecting to a rented machine inside a real VS Code (docs/machines.md), against the sandbox's real SSH
// server: Connect… shows the host key (confirmed through the step input, as a user would) and installs a
// generated key, after which the machine refuses the platform's password; Open Terminal runs a real
// Pseudoterminal (typing, Ctrl+C, a cut connection reconnected, `exit` closes with its code); Open in
// Remote-SSH without Remote-SSH installed writes the Host entry (OpenSSH logs in through it) and says so
// with the terminal offered; a changed host key is refused with a clear message and nothing hangs; Cancel on
// the host-key review (its default) pins nothing.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { MachineService } from '../../../src/core/machines/machineService';
import { SshAuthError, SshConnection } from '../../../src/core/ssh';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { metalControl } from './metalControl';

const run = promisify(execFile);
const DEVICE = 9077;

describe('machines: Connect, Open Terminal and Open in Remote-SSH', () => {
  let api: ExtensionApi;
  let service: MachineService;
  const sshDir = mkdtempSync(join(tmpdir(), 'it-machine-ssh-'));
  /** The Host alias Open in Remote-SSH wrote (the Open Folder case logs in through it). */
  let alias = '';

  before(async function () {
    this.timeout(PATIENCE_MS * 2);
    await computeWithSandbox();
    api = await extensionApi();
    api.tests.replace('machineSsh', { sshDir: () => sshDir });
    await metalControl('product', { device_id: DEVICE });
    service = new MachineService(api.surface.createComputeClient({}));
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === DEVICE);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(DEVICE, { pollMs: 50, timeoutMs: PATIENCE_MS });
  });
  after(() => {
    api.tests.restore('machineSsh');
    for (const record of api.machineConnect.terminals()) record.terminal.dispose();
    rmSync(sshDir, { recursive: true, force: true });
  });

  it('Cancel on the host-key review (its default answer) connects nothing and pins nothing: the next Connect… asks again', async function () {
    this.timeout(PATIENCE_MS * 2);
    const asked: string[] = [];
    // Every question left at its default: Enter on the review is Cancel.
    const connected = await answerFlow(api, () => api.machineConnect.connect(DEVICE), (input) => {
      assert.ok(isPick(input));
      asked.push(`${input.placeholder ?? ''} [active: ${input.activeItems[0]?.label ?? ''}]`);
    });
    assert.equal(connected, false);
    assert.equal(asked.length, 1, asked.join('\n'));
    assert.match(asked[0] ?? '', /First connection to .* Trust it\? \[active: Cancel\]$/);
    assert.ok(!api.surface.logText().includes(`pinned the host key of machine ${DEVICE}`), 'nothing pinned');
  });

  it('Connect… shows the host key first, installs a generated key, and the machine then refuses the password', async function () {
    this.timeout(PATIENCE_MS * 3);
    const asked: string[] = [];
    const connected = await answerFlow(api, () => api.machineConnect.connect(DEVICE), (input) => {
      assert.ok(isPick(input));
      asked.push(`${input.title ?? ''} | ${input.placeholder ?? ''}`);
      const wanted = input.items.find((item) => /^(Trust this host key and connect|Generate a key for this machine)$/.test(item.label));
      assert.ok(wanted, `an answer among ${input.items.map((item) => item.label).join(', ')}`);
      input.activeItems = [wanted];
    });
    assert.equal(connected, true);
    assert.equal(asked.length, 2, asked.join('\n'));
    assert.match(asked[0] ?? '', /First connection to 127\.0\.0\.1:\d+: its host key is SHA256:[A-Za-z0-9+/]{43}\. Trust it\?/);
    assert.match(asked[1] ?? '', /The key to install with the platform's password/);

    const login = await service.login(DEVICE);
    assert.ok(login.password);
    await assert.rejects(SshConnection.open({ host: login.host, port: login.port, username: login.username, password: login.password }), SshAuthError);
    assert.ok(!api.surface.logText().includes(login.password), 'the password is not in the log');
  });

  it('Open Terminal is a real pty on the machine: typing, Ctrl+C, a cut connection reconnected, exit closes', async function () {
    this.timeout(PATIENCE_MS * 3);
    const record = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(record);
    await waitUntil('the prompt', () => record.state() === 'open' && record.text().includes('$ '));
    record.terminal.sendText('echo start-$((1+1)); sleep 615; echo after-sleep');
    await waitUntil('the command to start', () => record.text().includes('start-2'));
    record.terminal.sendText('\x03', false);
    record.terminal.sendText('echo "mark-$((40+2))"');
    await waitUntil('the shell to answer after Ctrl+C', () => record.text().includes('mark-42'));
    assert.doesNotMatch(record.text(), /(^|\n)after-sleep/);

    assert.deepEqual(await metalControl('drop', { device_id: DEVICE }), { dropped: true });
    await waitUntil('the drop said in the terminal', () => /The connection to .* was lost/.test(record.text()));
    await waitUntil('the terminal open again', () => record.state() === 'open');
    record.terminal.sendText('echo "back-$((2*21))"');
    await waitUntil('the new shell answers', () => record.text().includes('back-42'));

    record.terminal.sendText('exit 3');
    await waitUntil('the terminal to close with the exit code', () => record.terminal.exitStatus?.code === 3);
  });

  it('Open in Remote-SSH without Remote-SSH writes the Host entry (OpenSSH logs in with it) and says so, offering the terminal', async function () {
    this.timeout(PATIENCE_MS * 2);
    assert.equal(vscode.extensions.getExtension('ms-vscode-remote.remote-ssh'), undefined, 'this VS Code has no Remote-SSH');
    const before = api.surface.refusals().length;
    const result = await api.machineConnect.openInRemoteSsh(DEVICE);
    assert.ok(result);
    assert.equal(result.opened, false);
    // One entry per profile and machine: the alias carries a digest of the profile's id.
    assert.match(result.alias, new RegExp(`^compute-machine-${DEVICE}-[0-9a-f]{8}$`));
    alias = result.alias;
    const uri = vscode.Uri.parse(result.uri);
    assert.equal(uri.scheme, 'vscode-remote');
    assert.equal(uri.authority, `ssh-remote+${alias}`);
    assert.match(uri.path, /^\/tmp\/compute-sandbox-machine-/, 'the machine user\'s home');
    const refusal = api.surface.refusals().slice(before).find((item) => /Remote-SSH is not installed/.test(item.message));
    assert.ok(refusal);
    assert.deepEqual(refusal.actions, ['Open Terminal', 'Show Remote-SSH']);

    assert.match(readFileSync(join(sshDir, 'config'), 'utf8'), /^Include ".*compute-toolkit\/config"$/m);
    const config = readFileSync(result.config, 'utf8');
    const identity = /IdentityFile "([^"]+)"/.exec(config)?.[1];
    assert.ok(identity);
    assert.equal(statSync(identity).mode & 0o777, 0o600);
    const ssh = await run('ssh', ['-F', result.config, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=60', result.alias, 'echo', 'via-openssh']);
    assert.equal(ssh.stdout.trim(), 'via-openssh');
  });

  it('Open Folder on Machine: the home over SFTP through the shared provider; a file written there is on the machine', async function () {
    this.timeout(PATIENCE_MS * 2);
    const folder = await api.machineConnect.openFolder(DEVICE, false);
    assert.ok(folder);
    const root = vscode.Uri.parse(folder);
    assert.equal(root.scheme, 'computemachine');
    assert.equal(root.authority, String(DEVICE));
    const file = vscode.Uri.joinPath(root, 'from-editor.txt');
    await vscode.workspace.fs.writeFile(file, Buffer.from('written over sftp'));
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file)).toString(), 'written over sftp');
    assert.ok((await vscode.workspace.fs.readDirectory(root)).some(([name]) => name === 'from-editor.txt'));
    const ssh = await run('ssh', ['-F', join(sshDir, 'compute-toolkit', 'config'), '-o', 'BatchMode=yes', alias, 'cat', 'from-editor.txt']);
    assert.equal(ssh.stdout, 'written over sftp');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, 'missing.txt'))), (error: unknown) => error instanceof vscode.FileSystemError && error.code === 'FileNotFound');
  });

  it('Forward Port… carries bytes to a port on the machine, comes back by itself after a drop, lists the forward and closes it; the public addresses are shown', async function () {
    this.timeout(PATIENCE_MS * 2);
    const echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const forward = await api.machineConnect.forwardPort(DEVICE, (echo.address() as AddressInfo).port);
      assert.ok(forward);
      assert.ok(api.machineConnect.forwards().some((item) => item.localPort === forward.localPort && item.deviceId === DEVICE));
      const socket = connect(forward.localPort, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.write('over-ssh');
      await waitUntil('the echo through the forward', () => answer === 'over-ssh');
      socket.destroy();

      // Every SSH connection to the machine cut: the forward comes back by itself on the same local port.
      const mark = api.money.notificationCount();
      assert.deepEqual(await metalControl('drop', { device_id: DEVICE }), { dropped: true });
      const back = await waitUntil('the forward back on its local port', () => api.machineConnect.forwards().find((item) => item.localPort === forward.localPort && item.deviceId === DEVICE));
      const again = connect(back.localPort, '127.0.0.1');
      let echoed = '';
      again.on('data', (chunk: Buffer) => (echoed += chunk.toString()));
      again.write('after-drop');
      await waitUntil('the echo through the restored forward', () => echoed === 'after-drop');
      again.destroy();
      assert.ok(!api.money.notificationsSince(mark).some((notice) => notice.kind === 'machineForwardLost'), 'a forward that came back is not reported lost');

      forward.close();
      for (const item of api.machineConnect.forwards()) if (item.deviceId === DEVICE) item.close();
      assert.ok(!api.machineConnect.forwards().some((item) => item.localPort === forward.localPort));
    } finally {
      echo.close();
    }
    const addresses = await api.machineConnect.publicAddresses(DEVICE);
    assert.deepEqual(addresses.map((address) => address.replace(/^.*:(\d+) → machine port (\d+)$/, '$1→$2')), ['46006→6006']);
    for (const address of addresses) assert.match(address, /^[0-9A-Za-z.:-]+:\d+ → machine port \d+$/);
  });

  it('a changed host key is refused with both fingerprints, by Connect… and by the terminal, and nothing hangs', async function () {
    this.timeout(PATIENCE_MS * 2);
    assert.deepEqual(await metalControl('host-key', { device_id: DEVICE }), { rotated: true });
    await assert.rejects(api.machineConnect.connect(DEVICE), /presented host key SHA256:.*not the pinned SHA256:/);
    const record = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(record);
    await waitUntil('the terminal to give up', () => record.state() === 'gave-up');
    assert.match(record.text(), /not the pinned SHA256:/);
    record.terminal.dispose();
  });
});
