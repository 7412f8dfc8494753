// Open Outputs lists what the run wrote or changed at any depth, not the inputs it was given, and the
// walk stays bounded however large the folder is.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findOutputs, OUTPUT_LIMITS } from '../../../src/core/nas/outputs';
import type { RemoteEntry, RemoteListing } from '../../../src/core/nas/sftpConnection';
import { isSafeEntryName, SkippedNames } from '../../../src/core/ssh/entryNames';

type Tree = Record<string, { size: number; mtimeMs: number } | 'dir'>;

/** A volume folder in memory: paths ("/runs/a/x.txt") to files, and folders implied by them. */
function volume(files: Tree, manifest?: unknown): { list(path: string): Promise<RemoteListing>; readFile(path: string): Promise<Buffer>; listed: number } {
  const all: Tree = { ...files };
  if (manifest !== undefined) all['/runs/a/.compute/upload-manifest.json'] = { size: 1, mtimeMs: 0 };
  const reader = {
    listed: 0,
    list: async (path: string): Promise<RemoteListing> => {
      reader.listed++;
      const prefix = path === '/' ? '/' : `${path}/`;
      const children = new Map<string, RemoteEntry>();
      for (const [full, info] of Object.entries(all)) {
        if (!full.startsWith(prefix)) continue;
        const [name, ...rest] = full.slice(prefix.length).split('/');
        if (!name) continue;
        if (rest.length > 0 || info === 'dir') children.set(name, { name, type: 'directory', size: 0, mtimeMs: 0 });
        else children.set(name, { name, type: 'file', size: info.size, mtimeMs: info.mtimeMs });
      }
      if (children.size === 0 && !Object.keys(all).some((key) => key === path)) throw new Error('no such folder');
      // As SftpConnection.list does: names that are not one plain segment are left out and counted.
      const skipped = new SkippedNames();
      const entries = [...children.values()].filter((entry) => isSafeEntryName(entry.name) || (skipped.add(entry.name, path), false));
      return { entries, skipped };
    },
    readFile: async (path: string): Promise<Buffer> => {
      if (path.endsWith('/.compute/upload-manifest.json') && manifest !== undefined) return Buffer.from(JSON.stringify(manifest));
      throw new Error('no such file');
    },
  };
  return reader;
}

const SYNCED = 1_700_000_000_000;
const LATER = SYNCED + 3_600_000;

describe('nas: Open Outputs finds what the run wrote or changed', () => {
  it('lists outputs/model.txt (written, one level down) and a rewritten input, not the unchanged inputs', async () => {
    const reader = volume(
      {
        '/runs/a/train.py': { size: 120, mtimeMs: SYNCED + 400 },
        '/runs/a/data/set.csv': { size: 5000, mtimeMs: SYNCED - 1000 },
        '/runs/a/config.json': { size: 40, mtimeMs: LATER },
        '/runs/a/outputs/model.txt': { size: 12, mtimeMs: LATER + 1000 },
        '/runs/a/outputs/deep/a/b/c/log.txt': { size: 3, mtimeMs: LATER - 1000 },
      },
      {
        version: 1,
        files: {
          // Recorded in ms; the volume carries whole seconds (the same second is the same time).
          'train.py': { size: 120, mtimeMs: SYNCED + 900, sha256: 'x' },
          'data/set.csv': { size: 5000, mtimeMs: SYNCED - 1000, sha256: 'y' },
          'config.json': { size: 40, mtimeMs: SYNCED, sha256: 'z' },
        },
      },
    );
    const listing = await findOutputs(reader, '/runs/a/');
    assert.deepEqual(
      listing.files.map((file) => [file.relative, file.change]),
      [
        ['outputs/model.txt', 'new'],
        ['config.json', 'changed'],
        ['outputs/deep/a/b/c/log.txt', 'new'],
      ],
    );
    assert.equal(listing.truncated, false);
    assert.equal(listing.recorded, true);
  });

  it('never offers the sync record itself, and a size change alone marks a file changed', async () => {
    const reader = volume({ '/runs/a/x.bin': { size: 9, mtimeMs: SYNCED } }, { version: 1, files: { 'x.bin': { size: 8, mtimeMs: SYNCED, sha256: 'x' } } });
    const listing = await findOutputs(reader, '/runs/a');
    assert.deepEqual(listing.files.map((file) => [file.relative, file.change]), [['x.bin', 'changed']]);
  });

  it('without a sync record every file is an output; a "__proto__" path is only a name', async () => {
    const reader = volume({ '/runs/a/__proto__': { size: 1, mtimeMs: SYNCED }, '/runs/a/b/constructor': { size: 1, mtimeMs: LATER } });
    const listing = await findOutputs(reader, '/runs/a');
    assert.deepEqual(listing.files.map((file) => file.relative), ['b/constructor', '__proto__']);
    assert.equal(listing.recorded, false);
  });

  it('leaves out names that cannot be used safely and names them for the warning, at any depth', async () => {
    const reader = volume({
      '/runs/a/ok.txt': { size: 1, mtimeMs: LATER },
      '/runs/a/...': { size: 1, mtimeMs: LATER },
      '/runs/a/out/x\u0000y': { size: 1, mtimeMs: LATER },
      '/runs/a/out/a\\b': { size: 1, mtimeMs: LATER },
      '/runs/a/out/\u001b]52;c;eA==\u0007clip': { size: 1, mtimeMs: LATER },
      '/runs/a/out/model.txt': { size: 1, mtimeMs: LATER },
    });
    const listing = await findOutputs(reader, '/runs/a');
    assert.deepEqual(listing.files.map((file) => file.relative).sort(), ['ok.txt', 'out/model.txt']);
    assert.equal(listing.unsafeNames?.count, 4);
    assert.deepEqual([...(listing.unsafeNames?.shown ?? [])].sort(), ['/runs/a/"..."', '/runs/a/out/"\\u001b]52;c;eA==\\u0007clip"', '/runs/a/out/"a\\u005cb"', '/runs/a/out/"x\\u0000y"'].sort());
    assert.equal((await findOutputs(volume({ '/runs/a/ok.txt': { size: 1, mtimeMs: LATER } }), '/runs/a')).unsafeNames, undefined, 'nothing to warn about');
  });

  it('stops at the limits: entries, folders, depth and files returned', async () => {
    const many: Tree = {};
    for (let index = 0; index < 300; index++) many[`/runs/a/f${index}.txt`] = { size: 1, mtimeMs: SYNCED + index * 1000 };
    const files = await findOutputs(volume(many), '/runs/a', { ...OUTPUT_LIMITS, maxFiles: 10 });
    assert.equal(files.files.length, 10);
    assert.equal(files.files[0]?.relative, 'f299.txt', 'newest first');
    assert.equal(files.truncated, true);

    const entries = await findOutputs(volume(many), '/runs/a', { ...OUTPUT_LIMITS, maxEntries: 50 });
    assert.equal(entries.files.length, 50);
    assert.equal(entries.truncated, true);

    const deep: Tree = {};
    let path = '/runs/a';
    for (let depth = 0; depth < 40; depth++) {
      path += `/d${depth}`;
      deep[`${path}/file.txt`] = { size: 1, mtimeMs: SYNCED };
    }
    const shallow = await findOutputs(volume(deep), '/runs/a', { ...OUTPUT_LIMITS, maxDepth: 5 });
    assert.equal(shallow.files.length, 5);
    assert.equal(shallow.truncated, true);

    const wide: Tree = {};
    for (let index = 0; index < 100; index++) wide[`/runs/a/d${index}/x.txt`] = { size: 1, mtimeMs: SYNCED };
    const reader = volume(wide);
    const folders = await findOutputs(reader, '/runs/a', { ...OUTPUT_LIMITS, maxFolders: 10 });
    assert.equal(reader.listed, 10, 'no folder listed past the limit');
    assert.equal(folders.truncated, true);
  });
});
