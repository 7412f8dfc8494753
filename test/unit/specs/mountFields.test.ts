// The spec ↔ wire table of mounts (src/core/specs/mountFields.ts): the body Deploy sends and the spec
// Save writes back read the same rows, so a field written one way reads back the same way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JOB_MOUNTS, MOUNT_FIELDS, TASK_MOUNTS, mountsFromWire, mountsToWire } from '../../../src/core/specs/mountFields';

const SPEC = {
  storage: [{ storageId: 1, targetDir: '/data' }],
  sharedStorage: [{ storageId: 2, targetDir: '/shared' }],
  nas: [{ volumeId: 3, targetDir: '/nas' }],
  sharedMemoryMounts: [{ volume: 'shm', targetDir: '/dev/shm' }],
  sharedDiskMounts: [{ volume: 'disk', targetDir: '/scratch' }],
};

describe('mount fields', () => {
  it('writes each list under its wire field, empty ones as null', () => {
    assert.deepEqual(mountsToWire({ ...SPEC, sharedStorage: [] }, JOB_MOUNTS), {
      storage_config: [{ storage_id: 1, target_dir: '/data' }],
      share_storage_config: null,
      nas_storage_config: [{ storage_id: 3, target_dir: '/nas' }],
      share_mem_config: [{ volume_name: 'shm', target_dir: '/dev/shm' }],
      share_disk_config: [{ volume_name: 'disk', target_dir: '/scratch' }],
    });
    assert.deepEqual(Object.keys(mountsToWire({}, TASK_MOUNTS)), ['storage_config', 'share_storage_config', 'nas_storage_config']);
  });

  it('reads back what it writes, in table order, leaving out empty lists and tolerating broken items', () => {
    assert.deepEqual(mountsFromWire(mountsToWire(SPEC, JOB_MOUNTS), JOB_MOUNTS), SPEC);
    assert.deepEqual(Object.keys(mountsFromWire(mountsToWire(SPEC, JOB_MOUNTS), JOB_MOUNTS)), MOUNT_FIELDS.map((row) => row.spec));
    assert.deepEqual(mountsFromWire({ storage_config: [], nas_storage_config: null }, TASK_MOUNTS), {});
    assert.deepEqual(mountsFromWire({ share_mem_config: [null] }, JOB_MOUNTS), { sharedMemoryMounts: [{ volume: '', targetDir: '' }] });
  });
});
