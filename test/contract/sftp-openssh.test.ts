// The sandbox's SFTP servers against Debian's OpenSSH `sftp` client (test/sandbox/sftpProtocol.ts): a NAS
// volume's server and a rented machine's. OpenSSH pipelines requests, reads folders until STATUS EOF,
// writes large files in many concurrent requests and ends by half-closing the channel; each batch runs
// under a deadline, so a server that leaves the client waiting fails here instead of hanging the suite.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { PATIENCE_MS, waitUntil } from '../helpers/eventually';
import { runOpenSshSftp, type SftpLogin } from '../helpers/openSshSftp';
import { SshMachine } from '../sandbox/metal/sshMachine';
import { READDIR_BATCH } from '../sandbox/sftpProtocol';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const MIB = 1024 * 1024;
/** Small files sent each way: every one is a few round trips, slow on a loaded machine, so they stay few. */
const SMALL_FILES = 40;
/** Entries of a folder laid on the server's disk: more than two READDIR answers' worth before its EOF. */
const LISTED = 2 * READDIR_BATCH + 44;
/** A hang, not slowness: each batch below takes seconds on a quiet machine. */
const DEADLINE_MS = 2 * PATIENCE_MS;

async function smallFiles(folder: string): Promise<Map<string, Buffer>> {
  await mkdir(folder);
  const files = new Map<string, Buffer>();
  for (let index = 0; index < SMALL_FILES; index++) {
    const name = `f${String(index).padStart(4, '0')}.txt`;
    const body = randomBytes(64 + (index % 7) * 100);
    files.set(name, body);
    await writeFile(join(folder, name), body);
  }
  return files;
}

async function sameFiles(folder: string, expected: Map<string, Buffer>): Promise<void> {
  assert.deepEqual((await readdir(folder)).sort(), [...expected.keys()].sort());
  for (const [name, body] of expected) assert.ok((await readFile(join(folder, name))).equals(body), `${name} differs`);
}

/** The names `ls -1` printed after the given batch command. */
function listed(stdout: string, command: string): string[] {
  const start = stdout.indexOf(`sftp> ${command}\n`);
  assert.ok(start >= 0, `"${command}" ran`);
  const rest = stdout.slice(start + command.length + 7);
  const end = rest.indexOf('sftp> ');
  return (end >= 0 ? rest.slice(0, end) : rest)
    .split(/\s+/)
    .filter((name) => name !== '')
    .map((name) => name.replace(/^.*\//, ''));
}

/** The same session of batches against one server, checked on the server's own folder (`root`). */
function openSshSuite(server: () => { login: SftpLogin; root: string; work: string }): void {
  const sftp = (commands: string[]) => runOpenSshSftp(server().login, commands, { work: server().work, deadlineMs: DEADLINE_MS });

  it('lists the root (empty, then with entries) and a nested folder, and makes folders', async () => {
    const { stdout } = await sftp(['ls -la /', 'mkdir /data', 'mkdir /data/nested', 'ls -la /', 'ls -la /data', 'cd /data/nested', 'pwd', 'ls -la']);
    assert.match(stdout, /^d\S+ .* data$/m, 'the root lists the new folder as a folder');
    assert.match(stdout, /^d\S+ .* nested$/m, 'the nested folder is listed');
    assert.match(stdout, /Remote working directory: \/data\/nested/);
  });

  it('put and get a multi-MiB file (many concurrent writes and reads), byte for byte', async () => {
    const { root, work } = server();
    const body = randomBytes(4 * MIB + 12_345);
    await writeFile(join(work, 'big.bin'), body);
    await sftp([`put ${join(work, 'big.bin')} /data/nested/big.bin`, `get /data/nested/big.bin ${join(work, 'big-back.bin')}`, 'ls -l /data/nested']);
    assert.ok((await readFile(join(root, 'data', 'nested', 'big.bin'))).equals(body), 'the server holds the same bytes');
    assert.ok((await readFile(join(work, 'big-back.bin'))).equals(body), 'the same bytes come back');
  });

  it('renames (never over an existing file) and removes', async () => {
    const { root, work } = server();
    await writeFile(join(work, 'note.txt'), 'note');
    const { stdout } = await sftp([
      `put ${join(work, 'note.txt')} /data/note.txt`,
      '-rename /data/note.txt /data/nested/big.bin',
      'rename /data/note.txt /data/renamed.txt',
      'rm /data/nested/big.bin',
      'rmdir /data/nested',
      'ls -1 /data',
    ]);
    assert.deepEqual(listed(stdout, 'ls -1 /data'), ['renamed.txt']);
    assert.deepEqual(await readdir(join(root, 'data')), ['renamed.txt']);
    assert.equal(await readFile(join(root, 'data', 'renamed.txt'), 'utf8'), 'note');
  });

  it(`a folder of ${SMALL_FILES} small files up and down (put -r, get -r); ${LISTED} entries listed across READDIR answers`, async () => {
    const { root, work } = server();
    const files = await smallFiles(join(work, 'small'));
    await mkdir(join(root, 'listed'));
    for (let index = 0; index < LISTED; index++) await writeFile(join(root, 'listed', `e${index}`), '');
    const { stdout } = await sftp([`put -r ${join(work, 'small')} /small`, 'ls -1 /small', `get -r /small ${join(work, 'small-back')}`, 'ls -1 /listed', 'ls -la /listed']);
    assert.equal(listed(stdout, 'ls -1 /small').length, SMALL_FILES);
    assert.equal(listed(stdout, 'ls -1 /listed').length, LISTED);
    await sameFiles(join(root, 'small'), files);
    await sameFiles(join(work, 'small-back'), files);
  });
}

describe("a NAS volume's SFTP server against OpenSSH's sftp client", () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let login: SftpLogin;
  let root: string;
  let work: string;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'sftp-openssh-nas-'));
    sandbox = await startSandbox({ nas: { creatingMs: 0, sftpPendingMs: 0 } });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    const { storage_id: id } = await client.call('nas.create', { name: 'openssh', nas_config_id: 101, total_size: 1024 * MIB });
    const info = await waitUntil('a running SFTP session', async () => {
      const session = await client.call('nas.sftpObtain', { storage_id: id });
      return session?.sftp_url && session.username && session.password ? { ...session, sftp_url: session.sftp_url, username: session.username, password: session.password } : false;
    });
    const [host, port] = info.sftp_url.split(':');
    login = { host: host ?? '', port: Number(port), username: info.username, password: info.password };
    root = sandbox.nas.volumeDirectory(id) ?? '';
    assert.ok(root);
  });
  after(async () => {
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  });

  openSshSuite(() => ({ login, root, work }));
});

describe("a rented machine's SFTP server against OpenSSH's sftp client", () => {
  const machine = new SshMachine({ username: 'root', password: randomBytes(12).toString('base64url') });
  let work: string;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'sftp-openssh-machine-'));
    await machine.start();
  });
  after(async () => {
    await machine.dispose();
    await rm(work, { recursive: true, force: true });
  });

  openSshSuite(() => ({ login: { ...machine.address, ...machine.login }, root: machine.home, work }));
});
