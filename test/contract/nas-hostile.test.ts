// Names from a volume's server are untrusted paths, and links are never followed (docs/security.md),
// against the sandbox's real SFTP server: a hostile listing (`../../../../x`, `a/b`, NUL, control
// characters, a folder chain that never ends, a listing that never ends) and real symbolic links on
// the volume (`dir/up -> ../victim`, a folder holding a link to itself).

import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ComputeCredentials } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { copyRemote, deleteRemote, download, listVolumes, NasFileError, NasSessions, SkippedNames, syncFolder, walkRemote } from '../../src/core/nas';
import { VolumeService } from '../../src/core/nas/volumeService';
import { nasToolAccess } from '../../src/core/nas/toolAccess';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

/** Every file and link under `root`, relative, "/"-separated, sorted. */
async function tree(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else found.push(relative(root, full).split('\\').join('/'));
    }
  };
  await visit(root);
  return found.sort();
}

const HOSTILE_NAMES = ['../../../../x', 'a/b', 'bad\u0000name', 'esc\u001b]52;c;aGk=\u0007', 'c1\u009b2J', 'back\\slash', '. .', 'del\u007f'];

describe('NAS names and links against the sandbox SFTP server', () => {
  let sandbox: Sandbox;
  let sessions: NasSessions;
  let storageId: number;
  let volume: string;
  let work: string;

  before(async () => {
    sandbox = await startSandbox({ nas: { sftpPendingMs: 20 } });
    const credentials: ComputeCredentials = { mode: 'token', token: sandbox.credentials.tokenMode.token };
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    sessions = new NasSessions(new VolumeService(() => client), { pendingPollMs: 20, renewMarginMs: 0 });
    const seeded = (await listVolumes(client)).find((v) => v.status === 'Active');
    assert.ok(seeded, 'the sandbox seeds an Active volume');
    storageId = seeded.storage_id;
    volume = sandbox.nas.volumeDirectory(storageId) as string;
    work = await mkdtemp(join(tmpdir(), 'nas-hostile-'));
  });

  after(async () => {
    sessions.dispose();
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  });

  beforeEach(() => sandbox.nas.clearHostileListings());

  it('a folder download skips names that are not one plain segment, names them escaped and writes nothing outside', async () => {
    await mkdir(join(volume, 'dl'), { recursive: true });
    await writeFile(join(volume, 'dl', 'ok.txt'), 'fine');
    await writeFile(join(volume, 'secret.txt'), 'from the server');
    sandbox.nas.addHostileListing({ kind: 'entries', storageId, folder: '/dl', entries: HOSTILE_NAMES.map((name) => ({ name, type: 'file' as const, backing: '/secret.txt' })) });
    const base = join(work, 'download', 'one', 'two', 'three');
    await mkdir(base, { recursive: true });

    const result = await download(sessions, storageId, '/dl', join(base, 'dl'), { policy: 'overwrite' });

    assert.deepEqual(await tree(join(work, 'download')), ['one/two/three/dl/ok.txt']);
    assert.equal(result.sent, 1);
    assert.equal(result.unsafeNames?.count, HOSTILE_NAMES.length);
    const shown = result.unsafeNames?.shown.join(' ') ?? '';
    for (const escaped of ['"../../../../x"', '"a/b"', '"bad\\u0000name"', '"esc\\u001b]52;c;aGk=\\u0007"', '"c1\\u009b2J"', '"back\\u005cslash"']) assert.ok(shown.includes(escaped), `${escaped} in ${shown}`);
    assert.doesNotMatch(shown, /[\u0000-\u001f\u007f-\u009f]/);
  });

  it('a listing (the Explorer, the agent tool) leaves the same names out and counts them', async () => {
    await mkdir(join(volume, 'ls'), { recursive: true });
    await writeFile(join(volume, 'ls', 'kept.txt'), 'k');
    sandbox.nas.addHostileListing({ kind: 'entries', storageId, folder: '/ls', entries: HOSTILE_NAMES.map((name) => ({ name, type: 'directory' as const })) });
    const listing = await sessions.run(storageId, (connection) => connection.list('/ls'));
    assert.deepEqual(
      listing.entries.map((e) => e.name),
      ['kept.txt'],
    );
    assert.equal(listing.skipped.count, HOSTILE_NAMES.length);
    const tool = await nasToolAccess(() => sessions, []).list(storageId, '/ls');
    assert.deepEqual(
      tool.entries.map((e) => e.name),
      ['kept.txt'],
    );
    assert.equal(tool.skipped.count, HOSTILE_NAMES.length);
  });

  it('a folder chain that never ends stops every walk at its depth bound, saying so, and deletes nothing', async () => {
    sandbox.nas.addHostileListing({ kind: 'endless-chain', storageId, folder: '/deep' });
    const tooDeep = (error: unknown): boolean => error instanceof NasFileError && error.code === 'too-deep' && /deeper than 128 levels/.test(error.message);
    await assert.rejects(download(sessions, storageId, '/deep', join(work, 'deep'), { policy: 'overwrite' }), tooDeep);
    await assert.rejects(
      sessions.run(storageId, (connection) => deleteRemote(connection, '/deep', true)),
      tooDeep,
    );
    await assert.rejects(
      sessions.run(storageId, (connection) => copyRemote(connection, '/deep', '/deep-copy')),
      tooDeep,
    );
    const local = join(work, 'sync-src');
    await mkdir(local, { recursive: true });
    await writeFile(join(local, 'train.py'), 'print(1)');
    await assert.rejects(syncFolder(sessions, { storageId, localDir: local, remoteDir: '/deep' }), tooDeep);
    assert.equal(await lstat(join(volume, 'deep-copy')).catch(() => undefined), undefined, 'the copy made nothing');
  });

  it('a listing that never ends stops at its entry bound with a clear error', async () => {
    sandbox.nas.addHostileListing({ kind: 'endless-listing', storageId, folder: '/wide' });
    sandbox.nas.addHostileListing({ kind: 'entries', storageId, folder: '/', entries: [{ name: 'wide', type: 'directory' }] });
    const tooMany = (error: unknown): boolean => error instanceof NasFileError && error.code === 'too-many' && /more than 5000 entries/.test(error.message);
    await assert.rejects(download(sessions, storageId, '/wide', join(work, 'wide'), { policy: 'overwrite', limits: { maxEntries: 5000 } }), tooMany);
    await assert.rejects(
      sessions.run(storageId, (connection) => connection.list('/wide', 5000)),
      tooMany,
    );
    await assert.rejects(
      sessions.run(storageId, async (connection) => {
        for await (const entry of walkRemote(connection, '/', { limits: { maxEntries: 5000 } })) void entry;
      }),
      tooMany,
    );
  });

  it('deleting a folder removes a link inside it as a link: the folder it points to keeps its files', async () => {
    await mkdir(join(volume, 'victim', 'inner'), { recursive: true });
    await writeFile(join(volume, 'victim', 'keep.txt'), 'keep');
    await writeFile(join(volume, 'victim', 'inner', 'deep.txt'), 'keep too');
    await mkdir(join(volume, 'dir', 'sub'), { recursive: true });
    await writeFile(join(volume, 'dir', 'own.txt'), 'mine');
    await symlink('../victim', join(volume, 'dir', 'up'));
    await symlink('../../victim/keep.txt', join(volume, 'dir', 'sub', 'file-link'));
    await symlink('victim', join(volume, 'victim-link'));

    await sessions.run(storageId, (connection) => deleteRemote(connection, '/dir', true));
    await sessions.run(storageId, (connection) => deleteRemote(connection, '/victim-link', false));

    assert.equal(await lstat(join(volume, 'dir')).catch(() => undefined), undefined, '/dir is gone');
    assert.equal(await lstat(join(volume, 'victim-link')).catch(() => undefined), undefined, 'the link itself is gone');
    assert.deepEqual(await tree(join(volume, 'victim')), ['inner/deep.txt', 'keep.txt']);
    assert.equal(await readFile(join(volume, 'victim', 'keep.txt'), 'utf8'), 'keep');
  });

  it('deleting a folder holding a name it cannot use deletes nothing and names the entry', async () => {
    await mkdir(join(volume, 'odd'), { recursive: true });
    await writeFile(join(volume, 'odd', 'plain.txt'), 'p');
    await writeFile(join(volume, 'odd', 'esc\u001b[2J'), 'e');
    const skipped = new SkippedNames();
    await assert.rejects(
      sessions.run(storageId, (connection) => deleteRemote(connection, '/odd', true, { skipped })),
      (error: unknown) => error instanceof NasFileError && /nothing was deleted/.test(error.message),
    );
    assert.deepEqual(skipped.names, ['/odd/"esc\\u001b[2J"']);
    assert.deepEqual(await tree(join(volume, 'odd')), ['esc\u001b[2J', 'plain.txt']);
  });

  it('copying a folder that holds a link to itself copies the link as a link, once', async () => {
    await mkdir(join(volume, 'src', 'data'), { recursive: true });
    await writeFile(join(volume, 'src', 'data', 'a.txt'), 'a');
    await symlink('.', join(volume, 'src', 'self'));
    await symlink('../src', join(volume, 'src', 'data', 'loop'));
    await symlink('data/a.txt', join(volume, 'src', 'a-link'));

    await sessions.run(storageId, (connection) => copyRemote(connection, '/src', '/copy'));

    assert.deepEqual(await tree(join(volume, 'copy')), ['a-link', 'data/a.txt', 'data/loop', 'self']);
    for (const [link, text] of [
      ['self', '.'],
      ['data/loop', '../src'],
      ['a-link', 'data/a.txt'],
    ] as const) {
      assert.ok((await lstat(join(volume, 'copy', link))).isSymbolicLink(), `${link} is a link`);
      assert.equal(await readlink(join(volume, 'copy', link)), text);
    }
    assert.equal(await readFile(join(volume, 'copy', 'data', 'a.txt'), 'utf8'), 'a');
  });

  it('a folder download does not follow links: a link to a folder outside is not descended', async () => {
    await mkdir(join(volume, 'outside'), { recursive: true });
    await writeFile(join(volume, 'outside', 'other.txt'), 'o');
    await mkdir(join(volume, 'withlink'), { recursive: true });
    await writeFile(join(volume, 'withlink', 'mine.txt'), 'm');
    await symlink('../outside', join(volume, 'withlink', 'out'));
    await symlink('.', join(volume, 'withlink', 'self'));
    const result = await download(sessions, storageId, '/withlink', join(work, 'links', 'withlink'), { policy: 'overwrite' });
    assert.equal(result.sent, 1);
    assert.deepEqual(await tree(join(work, 'links')), ['withlink/mine.txt']);
  });
});
